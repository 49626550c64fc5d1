import { chromium } from 'playwright-core';
const [url, out, sel] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage({ viewport: { width: 1300, height: 1000 } });
await p.goto(url);
await p.waitForTimeout(2500);
if (sel) { const el = p.locator(sel).first(); await el.scrollIntoViewIfNeeded(); await p.waitForTimeout(500); await el.screenshot({ path: out }); }
else await p.screenshot({ path: out, fullPage: true });
await b.close();
