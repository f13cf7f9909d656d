import { chromium } from '@playwright/test';
const exe = process.argv[2];
const extra = process.argv.slice(3);
const browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extra] });
for (let i = 0; i < 2; i++) { const c = await browser.newContext(); const p = await c.newPage(); await p.goto('data:text/html,<div id=a>hi</div>'); await p.locator('#a').textContent(); await p.screenshot(); await c.close(); }
await browser.close();
