/**
 * Line shapes of hammerdbcli output: a line with its run-dependent parts
 * abstracted (job ids, dates, paths, numbers), so that a recorded HammerDB
 * output and Sledge's output of the same script compare by kind of line,
 * not by figures.
 */

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const DAYS = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';

/**
 * One line's shape: <ID> (24-hex job id), <DATE> (Tcl clock format), <TS> (ISO-ish), <PATH>, <N> (any
 * number). Carriage returns go: hammerdbcli starts most lines with one (its prompt's redraw).
 */
export function lineShape(line: string): string {
  return line
    .replace(/\r/g, '')
    // A password key's values: hammerdbcli echoes them, Sledge masks them (secrets never reach its output).
    .replace(/^(Value )\S+( for \w+:\w*pass is the same as existing value )[^\s,]+/, '$1<SECRET>$2<SECRET>')
    .replace(/^(Changed \w+:\w*pass from )\S+( to )\S+/, '$1<SECRET>$2<SECRET>')
    .replace(/\b[0-9A-F]{24}\b/g, '<ID>')
    .replace(new RegExp(`\\b(?:${DAYS}) (?:${MONTHS}) +\\d+ \\d\\d:\\d\\d:\\d\\d \\w+ \\d{4}\\b`, 'g'), '<DATE>')
    .replace(/\b\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\b/g, '<TS>')
    .replace(/(^|[\s"])\/[^\s"]+/g, '$1<PATH>')
    .replace(/\d+(?:\.\d+)?/g, '<N>')
    .trimEnd();
}

/** The kinds of line in the order they first appear: each distinct shape once (blank lines left out). */
export function lineKinds(text: string): string[] {
  const kinds = new Set<string>();
  for (const line of text.split('\n')) {
    const s = lineShape(line);
    if (s !== '') kinds.add(s);
  }
  return [...kinds];
}

/** Every line's shape in order, repeats kept (blank lines left out). */
export function lineShapes(text: string): string[] {
  return text.split('\n').map(lineShape).filter((s) => s !== '');
}

/**
 * The recorded kinds that do not appear, in order, in `actual`'s lines (repeats kept: Sledge's
 * parallel loaders print a kind early and again where HammerDB's single loader prints it)
 * (`actual` may have more kinds between them): [] when every one does. Each
 * miss is reported with the recorded kind before it, and matching goes on
 * after it, so one difference does not hide the others.
 */
export function missingKinds(recorded: readonly string[], actual: readonly string[]): string[] {
  const missing: string[] = [];
  let at = 0;
  recorded.forEach((kind, i) => {
    const found = actual.indexOf(kind, at);
    if (found < 0) missing.push(`${JSON.stringify(kind)} (after ${JSON.stringify(recorded[i - 1] ?? '<start>')})`);
    else at = found + 1;
  });
  return missing;
}

/**
 * The output cut at the script's own marker lines (those starting with `marker`): each section's
 * text by its marker line, in order, so kinds are compared section by section (a kind missing from
 * one section cannot shift the order of the next).
 */
export function sections(text: string, marker: string): Map<string, string> {
  const out = new Map<string, string>();
  let name = '<start>';
  let lines: string[] = [];
  for (const line of text.split('\n')) {
    const clean = line.replace(/\r/g, '');
    if (clean.startsWith(marker)) {
      out.set(name, lines.join('\n'));
      name = clean;
      lines = [];
    } else lines.push(line);
  }
  out.set(name, lines.join('\n'));
  return out;
}

/** missingKinds section by section: "<section>: <kind> (after ...)" for each recorded kind Sledge did not print there. */
export function missingBySection(recorded: string, actual: string, marker: string): string[] {
  const got = sections(actual, marker);
  const missing: string[] = [];
  for (const [name, text] of sections(recorded, marker)) {
    if (name === '<start>') continue;
    const mine = got.get(name);
    if (mine === undefined) missing.push(`${name}: the whole section`);
    else for (const m of missingKinds(lineKinds(text), lineShapes(mine))) missing.push(`${name}: ${m}`);
  }
  return missing;
}
