import type { Dialog } from '../sessions/types';

/** A dialog for people: header, then each request with its time, model and status. */
export function formatDialog(dialog: Dialog): string {
  const lines = [
    `${dialog.title}`,
    `session ${dialog.sessionId} · ${dialog.format} · ${dialog.requests.length} requests · ${dialog.status}`,
  ];
  for (const note of dialog.diagnostics ?? []) {
    lines.push(`note: ${note}`);
  }
  for (const request of dialog.requests) {
    const facts = [
      request.timestamp !== undefined ? new Date(request.timestamp).toISOString() : undefined,
      request.modelId,
      request.status === 'complete' ? undefined : request.status,
    ].filter(Boolean);
    lines.push('', `#${request.index}${facts.length ? `  (${facts.join(', ')})` : ''}`);
    lines.push(...request.text.split('\n').map((line) => `  ${line}`));
  }
  return lines.join('\n');
}

/** A tool result for people; `--json` prints the exact JSON an agent gets instead. */
export function formatToolResult(name: string, result: Record<string, unknown>): string {
  if (result.success === false) {
    return `error: ${String(result.error ?? result.message ?? 'unknown error')}`;
  }
  switch (name) {
    case 'get_first_request':
      return `${String(result.firstRequest)}\n(session ${String(result.sessionId)}, ${String(result.requestsCount)} requests, ${String(result.time ?? 'no time')})`;
    case 'get_request':
      return `${String(result.request)}\n(request ${String(result.index)} of ${String(result.totalRequests)}, session ${String(result.sessionId)}, ${String(result.time ?? 'no time')})`;
    case 'list_dialogs': {
      const dialogs = (result.dialogs as { sessionId: string; title: string; requestsCount: number; lastActivity: string | null }[]) ?? [];
      if (dialogs.length === 0) {
        return 'No dialogs found.';
      }
      return dialogs
        .map((d) => `${d.sessionId}  ${String(d.requestsCount).padStart(3)} requests  ${d.lastActivity ?? 'unknown time'}  ${d.title}`)
        .join('\n');
    }
    case 'search_requests': {
      const hits = (result.results as { sessionId: string; index: number; snippet: string; score: number }[]) ?? [];
      if (hits.length === 0) {
        return String(result.message ?? 'No matching requests.');
      }
      return hits.map((h) => `${h.sessionId} #${h.index} (${h.score.toFixed(2)})  ${h.snippet}`).join('\n');
    }
    default:
      return JSON.stringify(result, null, 2);
  }
}
