// The inspector's page (GET /_sim/ui): one HTML document with its style and script inline, so
// it needs no build step and no second request. It holds no data: everything it shows is read
// in the browser from the control plane and the API (client.ts).
import { INSPECTOR_CLIENT_SCRIPT } from './client.ts';

const STYLE = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #fff; --alt: #f6f8fa; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Apple SD Gothic Neo", "Noto Sans KR", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--alt); }
header h1 { font-size: 1rem; margin: 0; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0; padding: 0; }
nav a { display: inline-block; padding: .25rem .6rem; border-radius: 6px; color: var(--accent); text-decoration: none; }
nav a[aria-current="page"] { background: var(--accent); color: #fff; }
.clock { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.clock output { font-variant-numeric: tabular-nums; font-weight: 600; }
button { font: inherit; padding: .2rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
button:focus-visible, a:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
main { padding: 1rem; max-width: 1400px; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
th { background: var(--alt); font-weight: 600; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0; }
.muted { color: var(--muted); }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.notice { padding: .6rem .8rem; border: 1px solid var(--line); border-left: 4px solid var(--warn); background: #fff8c5; margin-bottom: 1rem; }
.notice.error { border-left-color: var(--bad); background: #ffebe9; }
details > summary { cursor: pointer; }
.live { font-size: 12px; }
label { margin-right: .4rem; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: .4rem 1rem; margin: .5rem 0 1rem; }
dl.facts dt { color: var(--muted); font-size: 12px; } dl.facts dd { margin: 0; }
ul.vars { list-style: none; margin: 0; padding: 0; }
kbd { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; padding: 0 .3rem; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; background: var(--alt); }
`;

/** The whole page with the families' section scripts (their descriptors' `inspectorSections`); nothing here is user input. */
export function inspectorPage(sections: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Simulator inspector</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1>Simulator inspector</h1>
  <div class="clock" role="group" aria-label="Virtual clock">
    <span>Now <output id="now" aria-live="off">…</output></span>
    <span class="muted" id="clock-mode"></span>
    <span class="muted"><output id="pending">0 pending jobs</output></span>
    <button type="button" data-advance="60">+1 min</button>
    <button type="button" data-advance="3600">+1 h</button>
    <button type="button" data-advance="86400">+1 day</button>
    <button type="button" data-advance="next">Next job</button>
  </div>
  <span class="live muted" id="live" role="status">connecting…</span>
  <nav aria-label="Views"><ul>
    <li><a href="#/accounts">Accounts</a></li>
    <li><a href="#/messages">Messages</a></li>
    <li><a href="#/verifications">Verifications</a></li>
    <li><a href="#/phones">Phones</a></li>
    <li><a href="#/calls">Calls</a></li>
    <li><a href="#/webhooks">Webhooks</a></li>
    <li><a href="#/dns">DNS and email domains</a></li>
    <li><a href="#/clock">Clock</a></li>
  </ul></nav>
</header>
<main id="main" tabindex="-1">
  <div id="alert" role="alert"></div>
  <form id="token-form" hidden>
    <p>This simulator's control plane needs a token (it was started with <code>--control-token</code>).</p>
    <label for="token">Control-plane token</label>
    <input id="token" name="token" type="password" autocomplete="off" required>
    <button type="submit">Open</button>
  </form>
  <section id="view" aria-live="polite"></section>
</main>
${sections.map((script) => `<script>${script}</script>\n`).join('')}<script>${INSPECTOR_CLIENT_SCRIPT}</script>
</body>
</html>`;
}
