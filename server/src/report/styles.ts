/**
 * The report's stylesheet, inlined (the page loads nothing). Light by
 * default; prefers-color-scheme: dark swaps the colours and shows each
 * chart's dark rendering instead of its light one. Print keeps the light one.
 */
export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #ffffff; --fg: #1f2937; --muted: #6b7280; --line: #e5e7eb; --accent: #2563eb; --good: #15803d; --bad: #b91c1c; --code: #f3f4f6; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 20px 24px 48px; }
header.top { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 8px; border-bottom: 2px solid var(--accent); margin-bottom: 16px; }
h1 { font-size: 20px; margin: 0 0 6px; }
h2 { font-size: 16px; margin: 0 0 10px; }
h3 { font-size: 14px; margin: 14px 0 6px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 0 0 16px; }
.muted { color: var(--muted); }
.mono, code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.headline { display: flex; flex-wrap: wrap; gap: 12px; margin: 0 0 10px; }
.stat { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 130px; }
.stat .v { font-size: 24px; font-weight: 650; font-variant-numeric: tabular-nums; }
.stat .k { color: var(--muted); font-size: 12px; }
.result-line { font-family: ui-monospace, Menlo, Consolas, monospace; background: var(--code); padding: 6px 10px; border-radius: 4px; display: inline-block; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
td.n, th.n { text-align: right; }
table.kv td:first-child { color: var(--muted); width: 34%; word-break: break-all; }
table.kv td { word-break: break-word; }
.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 16px; }
figure.chart { margin: 8px 0 12px; }
figcaption { font-weight: 600; font-size: 13px; margin-bottom: 2px; }
.svg svg { width: 100%; height: auto; display: block; }
.svg.dark { display: none; }
.good { color: var(--good); } .bad { color: var(--bad); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; border: 1px solid currentColor; }
pre.out { max-height: 420px; overflow: auto; background: var(--code); padding: 8px; margin: 6px 0 0; white-space: pre-wrap; word-break: break-word; }
.sql { max-width: 520px; word-break: break-word; }
footer { color: var(--muted); font-size: 12px; text-align: center; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14171d; --card: #1b1f27; --fg: #e5e7eb; --muted: #9ca3af; --line: #2f3542; --accent: #60a5fa; --good: #4ade80; --bad: #f87171; --code: #242a35; }
  .svg.light { display: none; } .svg.dark { display: block; }
}
@media print {
  :root { --bg: #fff; --card: #fff; --fg: #000; --muted: #444; --line: #ccc; --code: #f3f3f3; }
  .svg.light { display: block !important; } .svg.dark { display: none !important; }
  section { break-inside: avoid; }
  pre.out { max-height: none; }
}
`;
