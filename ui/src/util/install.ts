/**
 * A driver's install text ("intro\n1. step\n   continued\n2. step") as an
 * introduction and numbered steps, so a page can show it as a list rather
 * than a block of text. Lines that start with whitespace continue the step
 * (or introduction) above them.
 */
export function parseInstall(text: string): { intro: string[]; steps: string[] } {
  const intro: string[] = [];
  const steps: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const step = /^\d+[.)]\s+(.*)$/.exec(line);
    if (step) steps.push(step[1]!);
    else if (/^\s/.test(raw) && steps.length) steps[steps.length - 1] += ` ${line}`;
    else if (steps.length) steps.push(line);
    else intro.push(line);
  }
  return { intro, steps };
}

/** Text split at `backticks`: odd entries are code. */
export function codeSpans(s: string): { text: string; code: boolean }[] {
  return s
    .split('`')
    .map((text, i) => ({ text, code: i % 2 === 1 }))
    .filter((x) => x.text !== '');
}
