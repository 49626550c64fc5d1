import { VERSION } from '../version.js';
import { REPORT_CSS } from './styles.js';
import { html, type Html } from './escape.js';

/** Nothing may load: no script, no font, no image by URL, no request at all; inline styles and data: images only. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The whole document around the report's sections. */
export function page(title: string, heading: Html, sections: readonly Html[]): string {
  const generated = new Date().toISOString().slice(0, 19).replace('T', ' ');
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="Sledge ${VERSION}">
<title>${title}</title>
<style>${{ __html: REPORT_CSS }}</style>
</head>
<body>
<main>
${heading}
${sections}
<footer>Sledge ${VERSION} report, generated ${generated} UTC. Self-contained: it opens offline and loads nothing.</footer>
</main>
</body>
</html>
`.__html;
}
