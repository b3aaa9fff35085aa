/**
 * Structured JSON logs, one line per entry, for CloudWatch Logs Insights. A dozen lines, so no
 * library: Powertools' logger adds nothing we use here. Callers never pass tokens or cards.
 */
type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

const quiet = () => process.env.LOG_LEVEL === 'SILENT';

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (quiet()) return;
  const line = JSON.stringify({ level, message, timestamp: new Date().toISOString(), ...fields });
  if (level === 'ERROR' || level === 'WARN') console.error(line);
  else console.log(line);
}
