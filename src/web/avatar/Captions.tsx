import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranscriptLine } from '../machine/pageMachine';

/**
 * The transcript (closed captions) panel: every line the guide said and every answer given, in
 * order, newest in view. It works with or without speech synthesis.
 *
 * @example
 * <Captions transcript={transcript} guideName="Ava" />
 */
export function Captions({
  transcript,
  guideName,
}: {
  transcript: readonly TranscriptLine[];
  guideName: string | undefined;
}) {
  const { t } = useTranslation();
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [transcript.length]);
  return (
    <section id="captions" className="captions" aria-labelledby="captions-title">
      <h2 id="captions-title" className="captions-title">
        {t('captions.title')}
      </h2>
      {transcript.length === 0 ? (
        <p className="muted">{t('captions.empty')}</p>
      ) : (
        <ol className="captions-list">
          {transcript.map((line, i) => (
            <li
              key={line.id}
              ref={i === transcript.length - 1 ? end : undefined}
              className={`caption caption-${line.who}`}
            >
              <span className="caption-who">
                {line.who === 'user' ? t('captions.you') : (guideName ?? t('captions.guide'))}
              </span>
              <span className="caption-text">{line.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
