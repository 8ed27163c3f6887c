import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MicIcon } from '../../components/Icons';
import { Busy, CallProblem } from '../../components/Notice';
import { StepHeading } from '../../components/StepHeading';
import { canRecognizeSpeech, listenOnce, type Listening } from '../../screens/speechInput';
import type { ScreenProps } from '../../screens/types';
import { useServerCall } from '../../screens/useServerCall';

/**
 * A conversation node: the guide's prompt (rendered by the server in the session's language,
 * spoken and captioned), then the user's answer, typed always and spoken where the browser can
 * recognise speech. The server picks the branch. A node that needs no reply moves on at once.
 */
export default function ConversationScreen({ node, lang, api, send }: ScreenProps<'conversation'>) {
  const { t } = useTranslation();
  const [prompt, setPrompt] = useState<string | null>(null);
  const [answer, setAnswer] = useState('');
  const [empty, setEmpty] = useState(false);
  const [listening, setListening] = useState<Listening | null>(null);
  const [voiceNote, setVoiceNote] = useState<string | null>(null);
  const [noMatch, setNoMatch] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const call = useServerCall(send, api);
  const quiet = node.doesNotRequireReply === true;
  const voice = canRecognizeSpeech();

  const { run } = call;
  useEffect(() => {
    void run(async () => {
      const { text } = await api.prompt(node.id);
      setPrompt(text);
      send({ type: 'SAY', text, stays: quiet });
      if (quiet) {
        const { position } = await api.reply(node.id);
        send({ type: 'POSITION', position });
      }
    });
  }, [api, node.id, quiet, run, send]);

  useEffect(() => () => listening?.stop(), [listening]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = answer.trim();
    if (!text) {
      setEmpty(true);
      input.current?.focus();
      return;
    }
    setEmpty(false);
    setNoMatch(false);
    listening?.stop();
    void call.run(async () => {
      const { outcome, position, answer: reply, again } = await api.reply(node.id, text);
      send({ type: 'HEARD', text });
      if (outcome === null) {
        // The guide answered a question (or said it did not understand) and asks again.
        if (reply && again) {
          send({ type: 'SAY', text: reply });
          send({ type: 'SAY', text: again });
        } else setNoMatch(true);
        setAnswer('');
        input.current?.focus();
        return;
      }
      send({ type: 'POSITION', position });
    });
  };

  const toggleVoice = () => {
    if (listening) {
      listening.stop();
      return;
    }
    setVoiceNote(t('conversation.listening'));
    const session = listenOnce(
      lang,
      (text, final) => {
        setAnswer(text);
        if (final) setVoiceNote(t('conversation.heard', { text }));
      },
      (error) => {
        setListening(null);
        if (error && error !== 'aborted') setVoiceNote(t('conversation.notHeard'));
        else setVoiceNote((note) => (note === t('conversation.listening') ? null : note));
        input.current?.focus();
      },
    );
    setListening(session);
    if (!session) setVoiceNote(t('conversation.notHeard'));
  };

  // The guide's words are shown (and announced) by the avatar above; this card is the answer.
  if (prompt === null || quiet) {
    return (
      <section className="card conversation" aria-busy={!call.problem}>
        {call.problem ? <CallProblem problem={call.problem} onRetry={call.retry} /> : <Busy />}
      </section>
    );
  }

  return (
    <section className="card conversation" aria-labelledby="conversation-title">
      <StepHeading id="conversation-title">{t('conversation.answerLabel')}</StepHeading>
      <form onSubmit={submit} noValidate>
        <textarea
          id="answer"
          aria-labelledby="conversation-title"
          ref={input}
          className="input"
          rows={2}
          value={answer}
          lang={lang}
          maxLength={2000}
          aria-invalid={empty || undefined}
          aria-describedby={empty ? 'guide-words answer-error' : 'guide-words'}
          onChange={(e) => setAnswer(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        {empty && (
          <p id="answer-error" className="field-error" role="alert">
            {t('conversation.empty')}
          </p>
        )}
        {noMatch && (
          <p className="notice" role="status">
            {t('conversation.noMatch')}
          </p>
        )}
        {voiceNote && (
          <p className="muted" role="status">
            {voiceNote}
          </p>
        )}
        <CallProblem problem={call.problem} onRetry={call.retry} />
        <div className="actions">
          <button type="submit" className="button" disabled={call.busy}>
            {t('conversation.send')}
          </button>
          {voice && (
            <button
              type="button"
              className={`button button-secondary${listening ? ' listening' : ''}`}
              onClick={toggleVoice}
              disabled={call.busy}
            >
              <MicIcon />
              {listening ? t('conversation.stopListening') : t('conversation.speak')}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
