import { codeSpans, parseInstall } from '../util/install.js';

function Rich({ text }: { text: string }) {
  return (
    <>
      {codeSpans(text).map((s, i) => (s.code ? <code key={i}>{s.text}</code> : <span key={i}>{s.text}</span>))}
    </>
  );
}

/** A driver's install instructions: the introduction, then numbered steps with commands in monospace. */
export function InstallSteps({ text }: { text: string }) {
  const { intro, steps } = parseInstall(text);
  return (
    <div className="install-steps">
      {intro.map((l, i) => (
        <p key={i}>
          <Rich text={l} />
        </p>
      ))}
      {steps.length > 0 && (
        <ol>
          {steps.map((s, i) => (
            <li key={i}>
              <Rich text={s} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
