// The dashboard's one small stylesheet: status in words and colour; no page wider than its window,
// from 1280 px down to a phone's 390 px. Long unbroken text (test names, ids, commands) wraps
// anywhere; stack traces and output scroll inside their own box (contain:inline-size keeps their
// longest line from widening a table cell); on a narrow screen a table whose cells carry
// data-label stacks (one block a row, each cell headed by its column), and any other table
// scrolls inside itself.
export const STYLESHEET = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1b1f24;background:#f6f7f9}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1.5rem;padding:.6rem 1.5rem;background:#1f2a37;color:#fff}
header.top a{color:#fff;text-decoration:none}header.top nav{display:flex;gap:.3rem 1rem;flex-wrap:wrap}
header.top form{margin-left:auto}header.top form.search~form{margin-left:0}main{max-width:1220px;margin:0 auto;padding:1rem 1.5rem 3rem;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.15rem;margin:1.6rem 0 .6rem}h3{font-size:1rem;margin:1rem 0 .4rem}
table{border-collapse:collapse;width:100%;background:#fff;margin:.4rem 0 1rem}
th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #e3e6ea;vertical-align:top;overflow-wrap:anywhere}
th{background:#eef1f4;font-weight:600;overflow-wrap:normal}td.num,th.num{text-align:right}code{font-size:.9em;word-break:break-all}
.badge{display:inline-block;max-width:100%;padding:.05rem .45rem;border-radius:.6rem;font-size:.8rem;font-weight:600;border:1px solid transparent;white-space:normal;overflow-wrap:break-word}
.ok{background:#dff5e3;color:#11632a;border-color:#9fd8ad}.bad{background:#fde2e1;color:#8a1c17;border-color:#f0a7a3}
.warn{background:#fff1d6;color:#7a4b00;border-color:#f1c878}.info{background:#e2ecfb;color:#1d4c8f;border-color:#a8c3ee}
.muted{background:#eceef1;color:#4a5360;border-color:#c9ced6}
dl.facts{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:.25rem 1rem;background:#fff;padding:.8rem 1rem;border:1px solid #e3e6ea}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;min-width:0}
h1.run-title{font-size:1.05rem;font-weight:600;margin:.3rem 0 .1rem}p.run-meta{margin:0 0 .8rem;color:#4a5360;font-size:.9rem}
section.headline{background:#fff;border:1px solid #e3e6ea;border-left:6px solid #c9ced6;padding:.7rem 1rem .8rem;margin:0 0 1rem}
section.headline h2{font-size:1.4rem;margin:0 0 .4rem;line-height:1.25}section.headline>p{margin:.3rem 0}
section.tone-bad{border-left-color:#c0392b;background:#fffafa}.tone-bad .verdict{color:#a11d16}
section.tone-warn{border-left-color:#d99a1e;background:#fffdf7}.tone-warn .verdict{color:#8a5600}
section.tone-ok{border-left-color:#2f9a4c}.tone-ok .verdict{color:#11632a}
section.tone-info{border-left-color:#3f74c9}.tone-info .verdict{color:#1d4c8f}.tone-muted .verdict{color:#4a5360}
article.blocking-test{border-top:1px solid #e3e6ea;margin-top:.7rem;padding-top:.5rem}
article.blocking-test h3{margin:.1rem 0 .1rem;font-size:1.05rem}article.blocking-test p{margin:.2rem 0}p.where{font-size:.85rem;color:#4a5360}
dl.why{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:.3rem .9rem;margin:.4rem 0}
dl.why dt{font-weight:600}dl.why dd{margin:0;min-width:0}p.hint{margin:.15rem 0;font-size:.8rem;color:#4a5360}
table.candidates{table-layout:fixed}table.candidates th:nth-child(1){width:30%}table.candidates th:nth-child(2){width:20%}
ol.strip{display:flex;flex-wrap:wrap;gap:3px;list-style:none;margin:0;padding:0}
ol.strip li{min-width:4.2rem;padding:.1rem .3rem;font-size:.75rem;text-align:center;border-radius:3px}
ol.strip li:has(>details[open]){flex-basis:100%;text-align:left}
details.failure>summary{cursor:pointer;text-decoration:underline dotted}
.failure-panel{background:#fff;color:#1b1f24;border:1px solid #f0a7a3;padding:.4rem .7rem;margin:.3rem 0;font-size:.85rem;text-align:left}
.failure-panel p{margin:.2rem 0}dl.evidence{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:.2rem .8rem;margin:.3rem 0}
dl.evidence dt{font-weight:600}dl.evidence dd{margin:0;min-width:0}
pre{max-width:100%;max-height:22rem;overflow:auto;background:#f6f7f9;border:1px solid #e3e6ea;padding:.35rem .5rem;margin:0;font-size:.8rem;tab-size:4;contain:inline-size}
.failure-panel pre{white-space:pre}
pre.message,pre.command,.reproduce pre{white-space:pre-wrap;overflow-wrap:anywhere}pre.message{max-height:12rem}
pre code{word-break:normal;font-size:1em}pre.command code,.reproduce pre code{overflow-wrap:anywhere}
.candidate-evidence p{margin:.3rem 0}.groups{font-size:.85rem}
.order-probe p{margin:.3rem 0}.order-finding{border-left:3px solid #f0a7a3;padding:.1rem 0 .3rem .6rem;margin:.4rem 0;font-size:.9rem}
form.stack{display:grid;gap:.6rem;max-width:640px;background:#fff;padding:1rem;border:1px solid #e3e6ea}
form.stack label{display:grid;gap:.2rem;font-weight:600}form.inline{display:inline}
form.stack p.hint{margin:.1rem 0 .4rem;font-weight:400;font-size:.85rem;color:#4a5360}
input,select,textarea,button{font:inherit;padding:.35rem .5rem;max-width:100%}button{cursor:pointer}
.error{background:#fde2e1;border:1px solid #f0a7a3;padding:.6rem 1rem;color:#8a1c17}
.notice{background:#e2ecfb;border:1px solid #a8c3ee;padding:.6rem 1rem}
svg{max-width:100%;height:auto}.table-scroll{max-width:100%;overflow-x:auto}.table-scroll>table{margin:0}svg text{font:11px system-ui,sans-serif}
@media (max-width:720px){
header.top{padding:.4rem .8rem;gap:.3rem .8rem;font-size:.9rem}header.top form{order:1;margin-left:auto}
header.top form.search~form{margin-left:auto}header.top form.search{order:2;flex-basis:100%}header.top nav{order:3;flex-basis:100%;gap:.1rem .9rem}
header.top button{padding:.2rem .5rem}main{padding:.6rem .8rem 2rem}
section.headline{padding:.6rem .7rem}section.headline h2{font-size:1.2rem}article.blocking-test h3{font-size:.95rem}
dl.facts,dl.why,dl.evidence{grid-template-columns:minmax(0,1fr)}dl.facts dd,dl.why dd,dl.evidence dd{margin-bottom:.3rem}
table:has(td[data-label]),table:has(td[data-label])>tbody,table:has(td[data-label])>tbody>tr,table:has(td[data-label])>tbody>tr>td{display:block;width:100%}
table:has(td[data-label])>thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table:has(td[data-label])>tbody>tr{border-bottom:2px solid #e3e6ea;padding:.3rem 0}
table:has(td[data-label])>tbody>tr>td{border:0;padding:.15rem .6rem;text-align:left}
td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
table:not(:has(td[data-label])){display:block;overflow-x:auto}
}
/* Test history and search (issue 36): the search box, the test page's history chart and its legend */
form.search{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem .5rem;margin:.2rem 0 1rem}form.search input{flex:1 1 14rem;min-width:0}
form.search.compact{margin:0;flex-wrap:nowrap}form.search.compact input{flex:1 1 11rem;width:11rem}
form.search.compact label{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
figure.history{margin:.4rem 0;background:#fff;border:1px solid #e3e6ea;padding:.5rem .7rem}
figure.history svg a:focus-visible rect{fill-opacity:.15;fill:#1d4c8f}
.legend{font-size:.85rem;color:#4a5360}.legend .pass{color:#11632a}.legend .fail{color:#a11d16}
details.history-table>summary{cursor:pointer;margin:.4rem 0}
ul.found{list-style:none;padding:0;margin:.3rem 0 1rem;background:#fff;border:1px solid #e3e6ea}
ul.found li{padding:.35rem .6rem;border-bottom:1px solid #e3e6ea}ul.found .where{color:#4a5360;font-size:.9rem}
`;
