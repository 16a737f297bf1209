/** How long ago `iso` was, short: "3s", "5m", "2h", "4d"; "-" for never. */
export function ago(iso: string | null, nowMs: number): string {
  if (!iso) return '-';
  const s = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
