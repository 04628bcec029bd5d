// The ramp's chart, drawn on the server as SVG: per day, bars of the runs that reached the gate on
// merge requests and, inside them, those that would have blocked. No script.
import type { RampDay } from '../telemetry/ramp-per-day.js';

const W = 1100;
const H = 240;
const PAD = { left: 40, right: 10, top: 16, bottom: 40 };

/** An SVG bar chart of the ramp (runs as bars, would-have-blocked runs as red bars inside). */
export function RampChart({ days }: { days: RampDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.runs));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, days.length);
  const bar = Math.max(4, Math.min(40, slot * 0.7));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-labelledby="ramp-title ramp-desc">
      <title id="ramp-title">Runs on merge requests per day, and those that would have blocked</title>
      <desc id="ramp-desc">Grey bars: runs on merge requests that reached the gate. Red bars: those runs the gate would have blocked (or blocked). The table below has the same numbers.</desc>
      <line x1={PAD.left} y1={PAD.top + innerH} x2={W - PAD.right} y2={PAD.top + innerH} stroke="#8a94a3" />
      <text x={PAD.left - 6} y={PAD.top + 4} text-anchor="end">{max}</text>
      <text x={PAD.left - 6} y={PAD.top + innerH} text-anchor="end">0</text>
      {days.map((d, i) => {
        const x = PAD.left + i * slot + (slot - bar) / 2;
        return (
          <g>
            <rect x={x} y={y(d.runs)} width={bar} height={PAD.top + innerH - y(d.runs)} fill="#9aa6b6"><title>{`${d.day}: ${d.runs} runs gated`}</title></rect>
            <rect x={x + bar * 0.25} y={y(d.wouldHaveBlocked)} width={bar * 0.5} height={PAD.top + innerH - y(d.wouldHaveBlocked)} fill="#c0392b"><title>{`${d.day}: ${d.wouldHaveBlocked} would have blocked`}</title></rect>
            <text x={x + bar / 2} y={H - PAD.bottom + 16} text-anchor="middle">{d.day.slice(5)}</text>
          </g>
        );
      })}
      <rect x={PAD.left} y={H - 16} width="10" height="10" fill="#9aa6b6" /><text x={PAD.left + 14} y={H - 7}>gated</text>
      <rect x={PAD.left + 70} y={H - 16} width="10" height="10" fill="#c0392b" /><text x={PAD.left + 84} y={H - 7}>would have blocked</text>
    </svg>
  );
}
