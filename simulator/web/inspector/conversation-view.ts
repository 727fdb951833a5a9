// The inspector's view of a call handled by an agent (ES5 text spliced into the inspector's
// script, client.ts): the conversation turn by turn, with the rule that fired, the phone's keys
// and what it said before the number's dictionary, each tool call with its arguments, result,
// latency and binding, and the events (opt-out, transfer, hang-up). It uses the script's own
// esc() and table() helpers.
export const CONVERSATION_VIEW = String.raw`
  function msText(ms) { return (ms / 1000).toFixed(1) + ' s'; }
  function toolCell(tool) {
    if (!tool) return '';
    return '<code>' + esc(tool.name) + '</code>(' + esc(JSON.stringify(tool.arguments)) + ') &rarr; ' + (tool.ok ? '' : '<strong>failed:</strong> ') + esc(tool.result) +
      ' <span class="muted">(' + esc(tool.latencyMs) + ' ms, ' + (tool.connectionId ? 'connection <code>' + esc(tool.connectionId) + '</code>' : 'no binding') + ')</span>';
  }
  function whyCell(d) {
    var parts = [];
    if (d.rule) parts.push(esc(d.rule));
    if (d.answer) parts.push('phone: ' + esc(d.answer));
    if (d.dtmf) parts.push('keys <code>' + esc(d.dtmf) + '</code>');
    if (d.spoken) parts.push('said <q>' + esc(d.spoken) + '</q> before the dictionary');
    return parts.join('; ');
  }
  function conversationView(w) {
    var h = w.handler;
    var who = h.kind === 'agent' ? 'managed agent <code>' + esc(h.target) + '</code> (its behaviour: <code>/_sim/agents/' + esc(h.target) + '/behaviour</code>)' : 'the Agent SDK runtime holding ' + esc(h.target);
    var head = '<p>Handled by ' + who + '.' + (h.context ? ' CallContext: <code>' + esc(JSON.stringify(h.context)) + '</code>.' : '') + '</p>';
    return head + table(['From', 'To', 'Speaker', 'Said', 'Why', 'Tool call', 'Events'], w.conversation.map(function (t) {
      var speaker = t.speaker === 'party' ? 'transfer party ' + esc(t.party) : esc(t.speaker);
      return [esc(msText(t.startMs)), esc(msText(t.endMs)), speaker, t.text === null ? '<span class="muted">—</span>' : esc(t.text), whyCell(t.detail), toolCell(t.detail.tool), esc((t.detail.events || []).join(', '))];
    }), 'No turn yet: the call has not been answered.');
  }
`;
