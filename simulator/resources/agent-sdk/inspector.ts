// The inspector's section for an Agent SDK call (ES5, sent inline before the inspector's own
// script): the agent's hello, the control events in order, media statistics (frames each way,
// marks, clears, DTMF), transfer requests and, per turn, the agent's response latency in wall
// time (observational). The inspector's call view hands it GET /_sim/agent-sdk/calls/{callId}
// and its own helpers (esc, table, section, fact).
export const SDK_CALL_SECTION_SCRIPT = String.raw`window.inspectorSections = window.inspectorSections || {};
window.inspectorSections.sdkCall = function (s, h) {
  var hello = s.connection && s.connection.hello;
  var html = '<dl class="facts">' +
    h.fact('Agent number', h.esc(s.number)) +
    h.fact('Handed over', h.esc(s.direction === 'inbound' ? 'call.incoming' : 'call.outbound_ready')) +
    h.fact('Where it stands', h.esc(s.phase)) +
    h.fact('Agent SDK', hello ? h.esc(hello.name + ' ' + hello.version) + '<br><span class="muted">' + h.esc(hello.runtime + ', ' + hello.os) + '</span>' : '<span class="muted">no hello on this connection</span>') +
    h.fact('Capabilities', hello && hello.capabilities.length ? h.esc(hello.capabilities.join(', ')) : '<span class="muted">none</span>') +
    h.fact('Telemetry, metrics', h.esc(s.reports.telemetry + ', ' + s.reports.metrics)) + '</dl>';
  html += h.section('sdk-control', 'Control events', h.table(['At', 'Way', 'Event', 'Note'], s.control.map(function (c) {
    return [h.esc(c.at), h.esc(c.way === 'sent' ? 'to the agent' : 'from the agent'), '<code>' + h.esc(c.event) + '</code>', h.esc(c.detail || '')];
  }), 'No control event yet.'));
  var m = s.media;
  html += h.section('sdk-media', 'Media', m ? '<dl class="facts">' +
    h.fact('Stream', '<code>' + h.esc(m.streamId) + '</code>') + h.fact('Length', h.esc(m.seconds + ' s')) +
    h.fact('Frames to the agent', h.esc(m.framesSent)) + h.fact('Frames played to the phone', h.esc(m.framesPlayed)) +
    h.fact('Audio received', h.esc(m.bytesReceived + ' bytes')) + h.fact('Marks (received, echoed)', h.esc(m.marksReceived + ', ' + m.marksEchoed)) +
    h.fact('Clears', h.esc(m.clears)) + h.fact('DTMF (phone, agent)', h.esc(m.dtmfSent + ', ' + m.dtmfReceived)) +
    h.fact('Refused messages', h.esc(m.refused)) + h.fact('Frames skipped (slow reader)', h.esc(m.framesSkipped)) + '</dl>'
    : '<p class="muted">The agent has not opened the media socket.</p>');
  html += h.section('sdk-transfers', 'Transfer requests', h.table(['Request', 'To', 'How', 'Status'], s.transfers.map(function (t) {
    return [h.esc(t.requestId || '—'), h.esc(t.to || '—'), h.esc(t.how || '—'), h.esc(t.status)];
  }), 'No transfer requested.'));
  html += h.section('sdk-latency', 'Agent response latency (wall time)', s.responseLatencyMs.length ?
    '<ol>' + s.responseLatencyMs.map(function (ms) { return '<li>' + h.esc(ms + ' ms') + '</li>'; }).join('') + '</ol><p class="muted">From the end of the phone\'s speech to the agent\'s first audio, per turn: measured on this machine, never in a record.</p>'
    : '<p class="muted">No turn answered yet.</p>');
  return html;
};`;
