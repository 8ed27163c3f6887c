import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicAvatar } from '../api/types';
import type { TranscriptLine } from '../machine/pageMachine';
import type { Speaker } from './speech';
import { wordsInView } from './wordsInView';

/**
 * The avatar: its image, a ring while it speaks, and its latest words in a live region so a
 * screen reader says them too (the words are on screen whether or not the voice is on).
 *
 * @example
 * <AvatarStage avatar={avatar} transcript={transcript} nodeId={node?.id ?? null} speaker={speaker} />
 */
export function AvatarStage({
  avatar,
  transcript,
  nodeId,
  speaker,
}: {
  avatar: PublicAvatar | null;
  nodeId: string | null;
  transcript: readonly TranscriptLine[];
  speaker: Speaker;
}) {
  const { t } = useTranslation();
  const [speaking, setSpeaking] = useState(false);
  useEffect(() => speaker.subscribe(setSpeaking), [speaker]);
  const recent = wordsInView(transcript, nodeId);
  return (
    <section className="avatar-stage" aria-label={t('avatar.saysLabel')}>
      <div className={`avatar-frame${speaking ? ' speaking' : ''}`}>
        {avatar ? (
          <img
            className="avatar-image"
            src={avatar.imageUrl}
            alt={t('avatar.alt', { name: avatar.name })}
            width={96}
            height={96}
            decoding="async"
          />
        ) : (
          <span className="avatar-placeholder" role="img" aria-label={t('avatar.altNoName')} />
        )}
      </div>
      <div
        id="guide-words"
        className="avatar-words"
        aria-live="polite"
        aria-atomic="false"
        aria-relevant="additions"
        data-testid="avatar-words"
      >
        {recent.map((line) => (
          <p key={line.id}>{line.text}</p>
        ))}
      </div>
    </section>
  );
}
