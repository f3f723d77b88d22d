import type { Schemas } from '../api.ts';

/** Accepted commands per minute as bars, the failed ones of each minute in red in front of them. */
export function CommandsChart({ minutes }: { minutes: Schemas['MinuteCounts'][] }) {
  const totals = minutes.reduce((sum, m) => ({ accepted: sum.accepted + m.accepted, succeeded: sum.succeeded + m.succeeded, failed: sum.failed + m.failed }), { accepted: 0, succeeded: 0, failed: 0 });
  const peak = Math.max(1, ...minutes.map((m) => Math.max(m.accepted, m.succeeded + m.failed)));
  const width = 600;
  const height = 120;
  const slot = width / Math.max(1, minutes.length);
  const bar = Math.max(1, slot * 0.7);
  const y = (n: number) => height - (n / peak) * height;
  const summary = `In the last ${minutes.length} minutes: ${totals.accepted} accepted, ${totals.succeeded} succeeded, ${totals.failed} failed; at most ${peak} in one minute.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height + 1}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        <line x1="0" x2={width} y1={height + 0.5} y2={height + 0.5} class="axis" />
        {minutes.map((m, i) => (
          <g key={m.minute}>
            <title>{`${new Date(m.minute).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}: ${m.accepted} accepted, ${m.succeeded} succeeded, ${m.failed} failed`}</title>
            <rect x={i * slot + (slot - bar) / 2} y={y(m.accepted)} width={bar} height={height - y(m.accepted)} class="bar-accepted" />
            {m.failed > 0 && <rect x={i * slot + (slot - bar) / 2 + bar * 0.2} y={y(m.failed)} width={bar * 0.6} height={height - y(m.failed)} class="bar-failed" />}
          </g>
        ))}
      </svg>
      <figcaption>
        <span class="legend legend-accepted" aria-hidden="true" /> accepted <strong>{totals.accepted}</strong> · succeeded <strong>{totals.succeeded}</strong> ·{' '}
        <span class="legend legend-failed" aria-hidden="true" /> failed <strong>{totals.failed}</strong> <span class="muted">(per minute, last {minutes.length} minutes, newest right; peak {peak})</span>
      </figcaption>
    </figure>
  );
}
