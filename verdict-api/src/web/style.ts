// The dashboard's one small stylesheet: readable at 1280x800, status in words and colour.
export const STYLESHEET = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1b1f24;background:#f6f7f9}
header.top{display:flex;align-items:center;gap:1.5rem;padding:.6rem 1.5rem;background:#1f2a37;color:#fff}
header.top a{color:#fff;text-decoration:none}header.top nav{display:flex;gap:1rem;flex-wrap:wrap}
header.top form{margin-left:auto}main{max-width:1220px;margin:0 auto;padding:1rem 1.5rem 3rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.15rem;margin:1.6rem 0 .6rem}
table{border-collapse:collapse;width:100%;background:#fff;margin:.4rem 0 1rem}
th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #e3e6ea;vertical-align:top}
th{background:#eef1f4;font-weight:600}td.num,th.num{text-align:right}code{font-size:.9em;word-break:break-all}
.badge{display:inline-block;padding:.05rem .45rem;border-radius:.6rem;font-size:.8rem;font-weight:600;border:1px solid transparent;white-space:nowrap}
.ok{background:#dff5e3;color:#11632a;border-color:#9fd8ad}.bad{background:#fde2e1;color:#8a1c17;border-color:#f0a7a3}
.warn{background:#fff1d6;color:#7a4b00;border-color:#f1c878}.info{background:#e2ecfb;color:#1d4c8f;border-color:#a8c3ee}
.muted{background:#eceef1;color:#4a5360;border-color:#c9ced6}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;padding:.8rem 1rem;border:1px solid #e3e6ea}
dl.facts dt{font-weight:600}dl.facts dd{margin:0}
ol.strip{display:flex;flex-wrap:wrap;gap:3px;list-style:none;margin:0;padding:0}
ol.strip li{min-width:4.2rem;padding:.1rem .3rem;font-size:.75rem;text-align:center;border-radius:3px}
ol.strip li:has(>details[open]){flex-basis:100%;text-align:left}
details.failure>summary{cursor:pointer;text-decoration:underline dotted}
.failure-panel{background:#fff;color:#1b1f24;border:1px solid #f0a7a3;padding:.4rem .7rem;margin:.3rem 0;font-size:.85rem;text-align:left}
.failure-panel p{margin:.2rem 0}dl.evidence{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2rem .8rem;margin:.3rem 0}
dl.evidence dt{font-weight:600}dl.evidence dd{margin:0;min-width:0}
.failure-panel pre,.reproduce pre{white-space:pre;max-height:22rem;overflow:auto;background:#f6f7f9;border:1px solid #e3e6ea;padding:.35rem .5rem;margin:0;font-size:.8rem;tab-size:4}
.failure-panel pre.message{white-space:pre-wrap;overflow-wrap:anywhere}
.candidate-evidence p{margin:.3rem 0}.groups{font-size:.85rem}
form.stack{display:grid;gap:.6rem;max-width:640px;background:#fff;padding:1rem;border:1px solid #e3e6ea}
form.stack label{display:grid;gap:.2rem;font-weight:600}form.inline{display:inline}
form.stack p.hint{margin:.1rem 0 .4rem;font-weight:400;font-size:.85rem;color:#4a5360}
input,select,textarea,button{font:inherit;padding:.35rem .5rem}button{cursor:pointer}
.error{background:#fde2e1;border:1px solid #f0a7a3;padding:.6rem 1rem;color:#8a1c17}
.notice{background:#e2ecfb;border:1px solid #a8c3ee;padding:.6rem 1rem}
svg text{font:11px system-ui,sans-serif}
`;
