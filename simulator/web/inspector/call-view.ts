// The inspector's view of one call (ES5 text spliced into the inspector's script, client.ts):
// its facts, the flow's walk block by block with the keys pressed and the variables set, its
// recordings and transcripts with audio fetched through the control plane, and the
// callflow.ended payload with its deliveries. It uses the script's own esc(), table(), control()
// and api() helpers and its audio cache.
export const CALL_VIEW = String.raw`
  function statusClass(status) { return status === 'completed' ? 'ok' : status === 'failed' || status === 'busy' || status === 'no-answer' || status === 'rejected' ? 'bad' : 'warn'; }
  function fact(name, value) { return '<div><dt>' + esc(name) + '</dt><dd>' + value + '</dd></div>'; }
  function seconds(from, to) { return Math.round((Date.parse(to) - Date.parse(from)) / 100) / 10 + ' s'; }
  function section(id, title, body) { return '<section aria-labelledby="' + id + '"><h3 id="' + id + '">' + esc(title) + '</h3>' + body + '</section>'; }
  function keysPressed(keys) { return keys === null ? '' : keys === '' ? '<span class="muted">no input</span>' : '<kbd>' + esc(keys) + '</kbd>'; }
  function variables(all, set) {
    var names = Object.keys(all);
    if (!names.length) return '<span class="muted">none</span>';
    return '<ul class="vars">' + names.map(function (n) {
      var line = '<code>' + esc(n) + ' = ' + esc(all[n]) + '</code>';
      return '<li>' + (Object.prototype.hasOwnProperty.call(set, n) ? '<strong>' + line + '</strong>' : line) + '</li>';
    }).join('') + '</ul>';
  }

  // One call (#/calls/<callId>): GET /_sim/calls/{callId} has its timeline, walk and the
  // callflow.ended payload; the webhook deliveries say who received that payload.
  function callDetail(id) {
    var walkRead = control('/calls/' + encodeURIComponent(id));
    var sent = control('/webhooks/deliveries?event=callflow.ended&resourceId=' + encodeURIComponent(id));
    var artifacts = control('/calls/' + encodeURIComponent(id) + '/artifacts').catch(function (e) {
      if (e instanceof Failure && e.status === 404) return null; // a simulator without the artifacts routes
      throw e;
    });
    var sdk = control('/agent-sdk/calls/' + encodeURIComponent(id)).catch(function () { return null; }); // not an Agent SDK call
    return Promise.all([walkRead, sent, artifacts, sdk]).then(function (r) {
      var w = r[0];
      var c = w.call;
      var html = '<h2>Call <code>' + esc(c.callId) + '</code></h2><p><a href="#/calls/' + esc(c.accountId) + '">All calls of ' + esc(c.accountId) + '</a></p>';
      html += '<dl class="facts">' + fact('Direction', esc(c.direction)) + fact('From', esc(c.from)) + fact('To', '<a href="#/phones/' + esc(c.direction === 'outbound' ? c.to : c.from) + '">' + esc(c.to) + '</a>') +
        fact('Status', '<span class="' + statusClass(c.status) + '">' + esc(c.status) + '</span>') + fact('Duration', esc(c.duration === null ? '—' : c.duration + ' s')) +
        fact('Hang-up', esc(c.hangupCause ? c.hangupCause + ' (Q.850 ' + c.hangupCauseQ850 + ', SIP ' + c.sipResponseCode + ', by ' + c.hangupSource + ')' : '—')) +
        fact('Call flow', w.callFlowId ? '<code>' + esc(w.callFlowId) + '</code>' : w.walk ? 'none: VoiceML from the app (the walk lists its requests and verbs)' : 'none') + '</dl>';
      var first = w.timeline.length ? w.timeline[0].at : null;
      html += section('call-timeline', 'Status timeline', table(['Status', 'At', 'Since the call was placed'], w.timeline.map(function (t) {
        return ['<span class="' + statusClass(t.status) + '">' + esc(t.status) + '</span>', esc(t.at), esc(seconds(first, t.at))];
      }), 'No status yet.'));
      if (w.conversation) html += section('call-conversation', 'Conversation', conversationView(w));
      html += section('call-walk', 'Flow walk', walkTable(w.walk));
      html += section('call-heard', 'What the phone heard and entered', (w.phone.heard.length ? '<ol>' + w.phone.heard.map(function (t) { return '<li>' + esc(t) + '</li>'; }).join('') + '</ol>' : '<p class="muted">Nothing: the call was not answered or said nothing.</p>') +
        (w.phone.entered.length ? '<p>Entered at each prompt: ' + w.phone.entered.map(keysPressed).join(', ') + '</p>' : ''));
      html += section('call-ended', 'callflow.ended', endedPayload(w, r[1].data));
      html += section('call-recordings', 'Recordings', recordings(c.callId, r[2]));
      html += section('call-transcript', 'Transcript and summary', transcriptFacts(r[2]));
      if (r[3] && window.inspectorSections) html += section('call-sdk', 'Agent SDK', window.inspectorSections.sdkCall(r[3], { esc: esc, table: table, section: section, fact: fact }));
      return html;
    }, function (e) {
      if (e instanceof Failure && e.status === 404) return '<div class="notice error">No call ' + esc(id) + ' in this simulator.</div>';
      throw e;
    });
  }
  // Recordings play from the control plane (no account key in the page): fetched with the token,
  // handed to the <audio> element as a blob URL by loadAudio() once the view is in the page.
  function recordings(callId, a) {
    var rec = a && a.recording;
    if (!rec) return '<p class="muted">No recordings: this call ran no record block.</p>';
    if (rec.state === 'deleted') return '<p class="muted">The recordings were deleted at ' + esc(rec.deletedAt) + '.</p>';
    if (rec.state === 'expired') return '<p class="muted">The recordings were kept 90 days and are gone since ' + esc(rec.expiresAt) + '.</p>';
    var base = '/_sim/calls/' + encodeURIComponent(callId) + '/recording';
    function player(label, path, secs) {
      var src = audioUrls[path] ? ' src="' + esc(audioUrls[path]) + '"' : '';
      return '<figure><figcaption>' + label + ' · ' + esc(secs) + ' s</figcaption><audio controls preload="metadata" data-src="' + esc(path) + '"' + src + ' aria-label="' + esc(label.replace(/<[^>]*>/g, '')) + '"></audio></figure>';
    }
    var html = rec.state === 'available' ? player('Whole call', base, rec.seconds) : '<p class="muted">The whole-call recording exists once the call ends.</p>';
    html += rec.pieces.map(function (p) { return player('Record block <code>' + esc(p.name) + '</code>', base + '/' + encodeURIComponent(p.name), p.seconds); }).join('');
    // Retention is the call's, so it is said once for all of its recordings.
    return rec.state === 'available' ? html + '<p class="muted">These recordings are kept until ' + esc(rec.expiresAt) + ' (90 days after the call ended).</p>' : html;
  }
  function transcriptFacts(a) {
    if (!a) return '<p class="muted">This simulator keeps no transcripts.</p>';
    var t = a.transcript;
    var s = a.summary;
    var tText = t.status + (t.status === 'failed' ? ' at ' + t.stage + ' (' + t.error + ')' : '') + (t.attempts ? ', attempt ' + t.attempts : '');
    var sText = s.status + (s.failedReason ? ' (' + s.failedReason + ')' : '') + (s.schemaVersion ? ', schema ' + s.schemaVersion : '');
    return '<dl class="facts">' + fact('Transcript', esc(tText)) + fact('Summary', esc(sText)) + '</dl>';
  }
  function loadAudio() {
    view.querySelectorAll('audio[data-src]').forEach(function (el) {
      var path = el.getAttribute('data-src');
      if (audioUrls[path]) { if (!el.getAttribute('src')) el.src = audioUrls[path]; return; }
      fetch(path, { headers: token ? { authorization: 'Bearer ' + token } : {} }).then(function (res) {
        if (!res.ok) throw new Error(String(res.status));
        return res.blob();
      }).then(function (blob) {
        audioUrls[path] = URL.createObjectURL(blob);
        el.src = audioUrls[path];
      }, function (e) {
        el.insertAdjacentHTML('afterend', '<p class="notice error">Could not load this recording (' + esc(e.message) + ').</p>');
      });
    });
  }
  function walkTable(walk) {
    if (!walk) return '<p class="muted">This call runs no call flow.</p>';
    var head = '<p>Flow <strong>' + esc(walk.status) + '</strong>; ' + esc(walk.steps.length) + ' blocks entered' + (walk.omitted ? ', and ' + esc(walk.omitted) + ' more not kept' : '') +
      '.</p><div>Start variables: ' + variables(walk.startVariables, {}) + '</div><p class="muted">Variables in bold were set by that block.</p>';
    return head + table(['#', 'Entered', 'Block', 'Heard or did', 'Keys pressed', 'Result', 'Variables after'], walk.steps.map(function (s, i) {
      var did = (s.heard !== null ? '<q>' + esc(s.heard) + '</q>' : '') + (s.action !== null ? (s.heard !== null ? '<br>' : '') + '<span class="muted">' + esc(s.action) + '</span>' : '');
      return [esc(i + 1), esc(s.at), '<code>' + esc(s.blockId) + '</code> ' + esc(s.type), did, keysPressed(s.keys),
        esc(s.result || '') + (s.inputAt ? '<br><span class="muted">at ' + esc(s.inputAt) + '</span>' : ''), variables(s.variables, s.set)];
    }), walk.status === 'running' ? 'The flow has not entered a block yet.' : 'The flow entered no block: the call ended before the flow started.');
  }
  function endedPayload(w, deliveries) {
    if (!w.flowEnded) return '<p class="muted">' + (w.callFlowId ? 'The flow has not ended yet.' : 'This call runs no call flow.') + '</p>';
    var f = w.flowEnded;
    var vars = f.Variables;
    try { vars = JSON.stringify(JSON.parse(f.Variables), null, 2); } catch (e) { /* shown as sent */ }
    var html = table(['Field', 'Value'], Object.keys(f).map(function (k) {
      return ['<code>' + esc(k) + '</code>', k === 'Variables' ? '<pre>' + esc(vars) + '</pre>' : esc(f[k])];
    }), '');
    html += deliveries.length ? '<p>Delivered to receivers (see <a href="#/webhooks">Webhooks</a>):</p>' + table(['Created', 'Receiver', 'Status', 'Attempts', 'Reason'], deliveries.map(function (d) {
      return [esc(d.createdAt), esc(d.target.url || d.target.kind), '<span class="' + (d.status === 'delivered' ? 'ok' : d.status === 'failed' ? 'bad' : 'warn') + '">' + esc(d.status) + '</span>',
        esc(d.attempts + ' of ' + d.maxAttempts), esc(d.reason || '')];
    }), '') : '<p class="muted">No webhook receives callflow.ended for this call.</p>';
    return html;
  }
`;
