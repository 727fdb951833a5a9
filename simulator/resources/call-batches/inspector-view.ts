// The inspector's batch view (ES5, sent inline before the inspector's own script; registered as
// `window.inspectorViews.batches`, see web/inspector/family-views.ts). #/batches/<accountId>
// lists an account's batches through the API; #/batches/<batchId> draws one from
// GET /_sim/call-batches/{batchId}/chart: recipients per status over virtual time as stacked
// areas, dials per hour as bars against the pace's limit with the stretches each round may dial
// beneath, and each round's outcomes. Plain SVG; at most one point per ~1,000 columns, so a page
// redrawn at every event costs the same for ten recipients or a million.
export const BATCH_VIEW_SCRIPT = String.raw`window.inspectorViews = window.inspectorViews || {};
(function () {
  var STACK = ['done', 'failed', 'suppressed', 'expired', 'canceled', 'dialing', 'pending'];
  var COLOR = { done: '#1a7f37', failed: '#cf222e', suppressed: '#bf8700', expired: '#8250df', canceled: '#6e7781', dialing: '#0969da', pending: '#afb8c1' };
  var ROUND_COLOR = ['#0969da', '#bc4c00', '#8250df', '#1a7f37', '#cf222e'];
  var W = 1000, H = 240, L = 56, R = 12, T = 10;
  var COLUMNS = 1000;

  function at(text) { return Date.parse(text); }
  function scaleX(from, to) { return function (t) { return L + (W - L - R) * (to === from ? 0 : (t - from) / (to - from)); }; }
  function num(n) { return Math.round(n * 10) / 10; }
  function timeLabel(tz) {
    var f = null;
    try { f = new Intl.DateTimeFormat('en-GB', { timeZone: tz, month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }); } catch (e) { f = null; }
    return function (t) { return f ? f.format(new Date(t)) : new Date(t).toISOString().slice(5, 16); };
  }
  // Ticks on whole hours (or minutes), at most seven, whatever the span.
  var STEPS = [5, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080, 43200].map(function (m) { return m * 60000; });
  function axisX(x, from, to, y, label, labelY) {
    var step = STEPS[STEPS.length - 1];
    for (var i = 0; i < STEPS.length; i++) if ((to - from) / STEPS[i] <= 6) { step = STEPS[i]; break; }
    var out = '';
    for (var t = Math.ceil(from / step) * step; t <= to; t += step) {
      out += '<line x1="' + num(x(t)) + '" x2="' + num(x(t)) + '" y1="' + T + '" y2="' + y + '" stroke="#d0d7de" stroke-width="0.5"/>' +
        '<text x="' + num(x(t)) + '" y="' + ((labelY || y) + 14) + '" font-size="11" text-anchor="' + (x(t) > W - R - 40 ? 'end' : x(t) < L + 40 ? 'start' : 'middle') + '" fill="#57606a">' + label(t) + '</text>';
    }
    return out;
  }
  function axisY(max, y0, y1, unit) {
    var out = '';
    for (var k = 0; k <= 4; k++) {
      var v = max * k / 4, y = y0 - (y0 - y1) * k / 4;
      out += '<line x1="' + L + '" x2="' + (W - R) + '" y1="' + num(y) + '" y2="' + num(y) + '" stroke="#eaeef2"/>' +
        '<text x="' + (L - 6) + '" y="' + num(y + 4) + '" font-size="11" text-anchor="end" fill="#57606a">' + Math.round(v).toLocaleString('en') + unit + '</text>';
    }
    return out;
  }
  function nowLine(x, c, y) {
    var now = at(c.now);
    if (now < at(c.span.from) || now > at(c.span.to)) return '';
    return '<line x1="' + num(x(now)) + '" x2="' + num(x(now)) + '" y1="' + T + '" y2="' + y + '" stroke="#1b1f24" stroke-dasharray="3 3"><title>now ' + c.now + '</title></line>';
  }

  // Recipients per status, stacked; the value of a bucket is drawn at its end.
  function statesChart(c, h) {
    var from = at(c.span.from), to = at(c.span.to), x = scaleX(from, to), y0 = H - 24;
    var n = c.buckets.count, step = c.buckets.seconds * 1000, first = at(c.buckets.first), stride = Math.max(1, Math.ceil(n / COLUMNS));
    var idx = [];
    for (var i = stride - 1; i < n + stride - 1; i += stride) idx.push(Math.min(i, n - 1));
    var max = c.total;
    idx.forEach(function (i) { var s = 0; STACK.forEach(function (st) { s += c.series[st][i]; }); if (s > max) max = s; });
    max = max || 1;
    var y = function (v) { return y0 - (y0 - T) * v / max; };
    var xs = idx.map(function (i) { return x(first + (i + 1) * step); });
    if (to > first + n * step) { idx.push(n - 1); xs.push(x(to)); }
    var below = idx.map(function () { return 0; });
    var layers = STACK.map(function (st) {
      var top = idx.map(function (i, k) { return below[k] + c.series[st][i]; });
      var pts = xs.map(function (px, k) { return num(px) + ',' + num(y(top[k])); });
      for (var k = xs.length - 1; k >= 0; k--) pts.push(num(xs[k]) + ',' + num(y(below[k])));
      below = top;
      return '<polygon points="' + pts.join(' ') + '" fill="' + COLOR[st] + '" fill-opacity="0.85" data-status="' + st + '"><title>' + st + '</title></polygon>';
    });
    var label = timeLabel(c.timezone);
    return '<svg viewBox="0 0 ' + W + ' ' + H + '" width="100%" role="img" aria-labelledby="batch-states-title" id="batch-states" data-total="' + c.total + '">' +
      '<title id="batch-states-title">Recipients per status from ' + h.esc(c.span.from) + ' to ' + h.esc(c.span.to) + '</title>' +
      axisY(max, y0, T, '') + axisX(x, from, to, y0, label) + layers.join('') + nowLine(x, c, y0) + '</svg>';
  }

  // Dials per hour as bars against the pace's limit; beneath, the stretches each round may dial.
  function dialsChart(c, h) {
    var from = at(c.span.from), to = at(c.span.to), x = scaleX(from, to);
    var d = c.dialsPerHour, step = d.seconds * 1000, first = at(d.first), stride = Math.max(1, Math.ceil(d.values.length / COLUMNS));
    var rounds = c.rounds.length, stripes = 14 * rounds + 6, y0 = H - 24;
    var peak = 0;
    d.values.forEach(function (v) { if (v > peak) peak = v; });
    var max = Math.max(d.limit, peak) * 1.1 || 1;
    var y = function (v) { return y0 - (y0 - T) * v / max; };
    var bars = '';
    for (var i = 0; i < d.values.length; i += stride) {
      var v = 0;
      for (var k = i; k < Math.min(d.values.length, i + stride); k++) if (d.values[k] > v) v = d.values[k];
      var x0 = x(Math.max(from, first + i * step)), x1 = x(Math.min(to, first + (i + stride) * step));
      if (v > 0) bars += '<rect x="' + num(x0) + '" y="' + num(y(v)) + '" width="' + num(Math.max(0.5, x1 - x0 - 0.3)) + '" height="' + num(y0 - y(v)) + '" fill="#0969da" data-dials="' + num(v) + '"><title>' + num(v) + ' dials per hour from ' + new Date(first + i * step).toISOString() + '</title></rect>';
    }
    var bands = '';
    c.windows.forEach(function (w) {
      var x0 = x(at(w.from)), x1 = x(at(w.to)), row = y0 + 6 + (w.round - 1) * 14;
      var color = ROUND_COLOR[(w.round - 1) % ROUND_COLOR.length];
      bands += '<rect x="' + num(x0) + '" y="' + T + '" width="' + num(x1 - x0) + '" height="' + (y0 - T) + '" fill="' + color + '" fill-opacity="0.06"/>' +
        '<rect class="window" x="' + num(x0) + '" y="' + row + '" width="' + num(Math.max(1, x1 - x0)) + '" height="10" fill="' + color + '" data-round="' + w.round + '" data-from="' + h.esc(w.from) + '" data-to="' + h.esc(w.to) + '"><title>round ' + w.round + ' may dial ' + h.esc(w.from) + ' to ' + h.esc(w.to) + '</title></rect>';
    });
    var names = '';
    for (var r = 1; r <= rounds; r++) names += '<text x="' + (L - 6) + '" y="' + (y0 + 15 + (r - 1) * 14) + '" font-size="11" text-anchor="end" fill="#57606a">round ' + r + '</text>';
    var limit = '<line x1="' + L + '" x2="' + (W - R) + '" y1="' + num(y(d.limit)) + '" y2="' + num(y(d.limit)) + '" stroke="#cf222e" stroke-dasharray="6 4" id="batch-pace-limit" data-limit="' + d.limit + '"/>' +
      '<text x="' + (W - R) + '" y="' + num(y(d.limit) - 4) + '" font-size="11" text-anchor="end" fill="#cf222e">pace: ' + d.limit.toLocaleString('en') + ' an hour</text>';
    return '<svg viewBox="0 0 ' + W + ' ' + (H + stripes) + '" width="100%" role="img" aria-labelledby="batch-dials-title" id="batch-dials">' +
      '<title id="batch-dials-title">Dials per hour against the pace, and when each round may dial</title>' +
      axisY(max, y0, T, '') + bands + bars + limit + names + axisX(x, from, to, y0, timeLabel(c.timezone), y0 + stripes) + nowLine(x, c, y0) + '</svg>';
  }

  function legend(c, h) {
    var last = c.buckets.count - 1;
    return h.table(['Status', 'In the chart’s last bucket', 'Now (getCallBatch)'], STACK.map(function (st) {
      var drawn = last < 0 ? 0 : c.series[st][last];
      return ['<span style="display:inline-block;width:.8em;height:.8em;background:' + COLOR[st] + '"></span> ' + h.esc(st),
        '<span data-chart-count="' + st + '">' + h.esc(drawn) + '</span>', '<span data-api-count="' + st + '">' + h.esc(c.counts[st]) + '</span>'];
    }), '');
  }

  function roundsTable(c, h) {
    var keys = [];
    c.rounds.forEach(function (r) { Object.keys(r.outcomes).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); }); });
    keys.sort();
    return h.table(['Round', 'After', 'On', 'Dialed', 'Queued for the next round'].concat(keys), c.rounds.map(function (r) {
      return [h.esc(r.round), h.esc(r.after === null ? '—' : r.after + ' min'), h.esc(r.on ? r.on.join(', ') : '—'), '<span data-round-dialed="' + r.round + '">' + h.esc(r.dialed) + '</span>', h.esc(r.retried)]
        .concat(keys.map(function (k) { return '<span data-round="' + r.round + '" data-outcome="' + h.esc(k) + '">' + h.esc(r.outcomes[k] || 0) + '</span>'; }));
    }), 'No rounds.');
  }

  function batchDetail(id, h) {
    return h.control('/call-batches/' + encodeURIComponent(id) + '/chart').then(function (c) {
      var html = '<h2>Call batch <code>' + h.esc(c.batchId) + '</code> · ' + h.esc(c.name) + '</h2><p><a href="#/batches/' + h.esc(c.accountId) + '">All batches of ' + h.esc(c.accountId) + '</a></p>';
      html += '<dl class="facts">' + h.fact('Status', '<strong id="batch-status">' + h.esc(c.status) + '</strong>') + h.fact('Recipients', h.esc(c.total.toLocaleString('en'))) +
        h.fact('Pace', h.esc(c.pacingPerMinute + ' a minute (' + c.dialsPerHour.limit.toLocaleString('en') + ' an hour)')) + h.fact('Concurrency', h.esc(c.maxConcurrency)) +
        h.fact('Starts', h.esc(c.startAt || 'at creation')) + h.fact('Ends', h.esc(c.endAt || '—')) + h.fact('Time zone (chart times)', h.esc(c.timezone)) +
        h.fact('Buckets', h.esc(c.buckets.count + ' of ' + (c.buckets.seconds / 60) + ' min')) + '</dl>';
      html += h.section('batch-states-h', 'Recipients per status over virtual time', statesChart(c, h) + legend(c, h));
      html += h.section('batch-dials-h', 'Dials per hour, the pace and the windows', dialsChart(c, h) +
        '<p class="muted">' + (c.dialsPerHour.averaged ? 'Each bar is a bucket’s mean per hour. ' : '') + 'Dashed red: the pace’s limit. Shaded, and the stripes under the chart: when each round may dial (its windows within 08:00 to 21:00 Korea time)' +
        (c.windowsCut ? '; only the first stretches are drawn' : '') + '.</p>');
      html += h.section('batch-rounds-h', 'Outcomes of each round', roundsTable(c, h));
      return html;
    }, function (e) {
      if (e instanceof h.Failure && e.status === 404) return '<div class="notice error">No call batch ' + h.esc(id) + ' in this simulator.</div>';
      throw e;
    });
  }

  window.inspectorViews.batches = {
    title: 'Call batches',
    render: function (part, h) {
      if (part && part.indexOf('CB') === 0) return batchDetail(part, h);
      return h.perAccount('batches', part, function (account) {
        return h.api(account, '/call-batches').then(function (r) {
          return '<h2>Call batches</h2>' + h.table(['Batch', 'Name', 'Status', 'Recipients', 'Done', 'Failed', 'Pending', 'Pace'], r.callBatches.map(function (b) {
            var total = 0;
            Object.keys(b.counts).forEach(function (k) { total += b.counts[k]; });
            return ['<a href="#/batches/' + h.esc(b.batchId) + '"><code>' + h.esc(b.batchId) + '</code></a>', h.esc(b.name), h.esc(b.status), h.esc(total), h.esc(b.counts.done), h.esc(b.counts.failed), h.esc(b.counts.pending), h.esc(b.pacingPerMinute + '/min')];
          }), 'No call batches in this account.');
        }, function (e) {
          if (e instanceof h.Failure && e.status === 404) return '<p class="muted">This simulator serves no call batches.</p>';
          throw e;
        });
      });
    }
  };
})();`;
