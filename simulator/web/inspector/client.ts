// The inspector's script, sent inline as text (ES5, no build step). It reads only through the
// control plane and the API, changes nothing but the clock (its buttons), follows the
// simulator's domain events over server-sent events, and says so in the page when something
// cannot be read: a wrong token, an unknown id, a simulator reset under it.
import { CALL_VIEW } from './call-view.ts';
import { CONVERSATION_VIEW } from './conversation-view.ts';
import { FAMILY_VIEWS } from './family-views.ts';

export const INSPECTOR_CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  ${CONVERSATION_VIEW}
  ${CALL_VIEW}
  ${FAMILY_VIEWS}
  var view = document.getElementById('view');
  var alertBox = document.getElementById('alert');
  var tokenForm = document.getElementById('token-form');
  var live = document.getElementById('live');
  var token = sessionStorage.getItem('sim-control-token') || '';
  var lastNow = null;
  var accountsCache = null;
  var rendering = false;
  var again = false;
  var audioUrls = {}; // control-plane recording path -> blob URL, kept across live re-renders

  function esc(v) {
    return String(v === null || v === undefined ? '' : v).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function say(text, isError) { alertBox.innerHTML = text ? '<div class="notice' + (isError ? ' error' : '') + '">' + esc(text) + '</div>' : ''; }
  function mask(key) { return key.length > 14 ? key.slice(0, 10) + '…' + key.slice(-4) : '…'; }
  function table(head, rows, empty) {
    if (!rows.length) return '<p class="muted">' + esc(empty) + '</p>';
    return '<table><thead><tr>' + head.map(function (h) { return '<th scope="col">' + esc(h) + '</th>'; }).join('') + '</tr></thead><tbody>' +
      rows.map(function (r) { return '<tr>' + r.map(function (c) { return '<td>' + c + '</td>'; }).join('') + '</tr>'; }).join('') + '</tbody></table>';
  }

  function Failure(status, body, path) { this.status = status; this.body = body; this.path = path; }
  function request(method, path, opts) {
    opts = opts || {};
    var headers = {};
    var auth = opts.key !== undefined ? opts.key : token;
    if (auth) headers.authorization = 'Bearer ' + auth;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }).then(function (res) {
      return res.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (e) { body = { error: text.slice(0, 200) }; }
        if (!res.ok) throw new Failure(res.status, body, path);
        return body;
      });
    });
  }
  function control(path) { return request('GET', '/_sim' + path); }
  function api(account, path) { return request('GET', '/v1/accounts/' + encodeURIComponent(account.accountId) + path, { key: account.apiKeys[0] || '' }); }
  function explain(e) {
    if (e instanceof Failure) {
      if (e.status === 401 && e.path.indexOf('/_sim') === 0) return 'The control plane refused the token.';
      return 'Could not read ' + e.path + ': ' + e.status + (e.body && e.body.code ? ' ' + e.body.code : '') + (e.body && e.body.error ? ' (' + e.body.error + ')' : '');
    }
    return 'The simulator cannot be reached (' + (e && e.message ? e.message : String(e)) + ').';
  }

  function accounts(fresh) {
    if (accountsCache && !fresh) return Promise.resolve(accountsCache);
    return control('/accounts').then(function (r) { accountsCache = r.data; return r.data; });
  }
  function pick(list, id) {
    for (var i = 0; i < list.length; i++) if (list[i].accountId === id) return list[i];
    return null;
  }
  function accountPicker(list, current, base) {
    return '<p><label for="account">Account</label><select id="account" data-base="' + esc(base) + '">' + list.map(function (a) {
      return '<option value="' + esc(a.accountId) + '"' + (a.accountId === current ? ' selected' : '') + '>' + esc(a.accountId + ' · ' + a.name) + '</option>';
    }).join('') + '</select></p>';
  }
  // A view of one account: #/<base>/<accountId>, the first account when none is named.
  function perAccount(base, part, render) {
    return accounts().then(function (list) {
      if (!list.length) return '<p class="muted">No accounts.</p>';
      var account = part ? pick(list, part) : list[0];
      if (!account) return '<div class="notice error">No account ' + esc(part) + ' in this simulator.</div>' + accountPicker(list, '', base);
      return render(account).then(function (html) { return accountPicker(list, account.accountId, base) + html; });
    });
  }

  var views = {
    accounts: function () {
      return accounts(true).then(function (list) {
        return '<h2>Accounts</h2>' + table(['Account', 'Plan', 'Add-ons', 'Subscription', 'Numbers', 'API keys'], list.map(function (a) {
          return ['<strong>' + esc(a.accountId) + '</strong><br>' + esc(a.name), esc(a.plan), esc(a.addons.join(', ') || '—'),
            esc(a.subscription.status) + (a.subscriptionActive ? '' : ' <span class="bad">(inactive)</span>'),
            esc(a.numbers.join(', ') || '—'), '<code>' + a.apiKeys.map(mask).map(esc).join('<br>') + '</code>'];
        }), 'No accounts.');
      });
    },
    messages: function (part) {
      return perAccount('messages', part, function (account) {
        return api(account, '/messages?pageSize=100').then(function (r) {
          return '<h2>Messages</h2>' + table(['Created', 'Direction', 'Type', 'From', 'To', 'Status', 'Body'], r.data.map(function (m) {
            return [esc(m.dateCreated), esc(m.direction), esc(m.type), esc(m.from), '<a href="#/phones/' + esc(m.to) + '">' + esc(m.to) + '</a>',
              '<span class="' + (m.status === 'failed' ? 'bad' : m.status === 'sent' ? 'ok' : '') + '">' + esc(m.status) + '</span>', esc(m.body)];
          }), 'No messages in this account.');
        });
      });
    },
    verifications: function (part) {
      return perAccount('verifications', part, function (account) {
        return request('GET', '/v2/verifications?pageSize=100', { key: account.apiKeys[0] || '' }).then(function (r) {
          var phones = {};
          r.data.forEach(function (v) { phones[v.to] = true; });
          return Promise.all(Object.keys(phones).map(function (n) { return control('/carrier/phones/' + encodeURIComponent(n)); })).then(function (seen) {
            var codes = {};
            seen.forEach(function (p) { (p.messages || []).forEach(function (m) { if (m.verificationId) codes[m.verificationId] = m.code; }); });
            return '<h2>Verifications</h2>' + table(['Created', 'To', 'Channel', 'Status', 'Code on the phone', 'Expires'], r.data.map(function (v) {
              return [esc(v.createdAt), '<a href="#/phones/' + esc(v.to) + '">' + esc(v.to) + '</a>', esc(v.channel), esc(v.status),
                '<code>' + esc(codes[v.verificationId] || '—') + '</code>', esc(v.expiresAt)];
            }), 'No verifications in this account.');
          });
        });
      });
    },
    phones: function (part) {
      return control('/carrier/deliveries').then(function (r) {
        var numbers = [];
        r.data.forEach(function (d) { if (numbers.indexOf(d.to) < 0) numbers.push(d.to); });
        var list = '<h2>Phones</h2><p>' + (numbers.length ? numbers.map(function (n) { return '<a href="#/phones/' + esc(n) + '">' + esc(n) + '</a>'; }).join(' · ') : '<span class="muted">No phone has been reached yet.</span>') + '</p>';
        if (!part) return list;
        return control('/carrier/phones/' + encodeURIComponent(part)).then(function (p) {
          return list + '<h3>What ' + esc(p.number) + ' received</h3>' + table(['Received', 'From', 'Type', 'Text', 'Code'], (p.messages || []).map(function (m) {
            return [esc(m.receivedAt), esc(m.from), esc(m.type), esc(m.body), '<code>' + esc(m.code || '') + '</code>'];
          }), 'No texts.') + '<h3>Calls</h3>' + table(['Answered', 'Call', 'From', 'Heard', 'Entered'], (p.calls || []).map(function (c) {
            return [esc(c.answeredAt), c.callId ? '<a href="#/calls/' + esc(c.callId) + '"><code>' + esc(c.callId) + '</code></a>' : esc(c.verificationId ? 'verification ' + c.verificationId : ''), esc(c.from),
              '<pre>' + esc(Array.isArray(c.heard) ? c.heard.join('\n') : c.heard) + '</pre>', esc((c.entered || []).join(', '))];
          }), 'No answered calls.');
        });
      });
    },
    calls: function (part) {
      if (part && part.indexOf('AC') !== 0) return callDetail(part);
      return perAccount('calls', part, function (account) {
        return api(account, '/calls?pageSize=100').then(function (r) {
          return '<h2>Calls</h2>' + table(['Call', 'Created', 'Direction', 'From', 'To', 'Status', 'Duration', 'Hang-up'], r.data.map(function (c) {
            return ['<a href="#/calls/' + esc(c.callId) + '"><code>' + esc(c.callId) + '</code></a>', esc(c.dateCreated), esc(c.direction), esc(c.from), esc(c.to),
              '<span class="' + statusClass(c.status) + '">' + esc(c.status) + '</span>', esc(c.duration === null ? '—' : c.duration + ' s'), esc(c.hangupCause || '')];
          }), 'No calls in this account.');
        }, function (e) {
          if (e instanceof Failure && e.status === 404) return '<p class="muted">This simulator serves no call operations.</p>';
          throw e;
        });
      });
    },
    webhooks: function () {
      return Promise.all([control('/webhooks/deliveries'), control('/webhooks/journal'), accounts()]).then(function (all) {
        var attempts = {};
        all[1].data.forEach(function (a) { (attempts[a.deliveryId] = attempts[a.deliveryId] || []).push(a); });
        var keys = {};
        return Promise.all(all[2].map(function (a) {
          return control('/accounts/' + encodeURIComponent(a.accountId) + '/signing-key').then(function (k) { keys[a.accountId] = k.signingKey || k.key || ''; }, function () {});
        })).then(function () {
          return Promise.all(all[0].data.map(function (d) {
            return Promise.all((attempts[d.id] || []).map(function (a) { return verify(keys[a.accountId], a); })).then(function (checks) {
              var rows = (attempts[d.id] || []).map(function (a, i) {
                var fields = Object.keys(a.requestFields || {}).map(function (k) { return esc(k) + ': ' + esc(a.requestFields[k]); }).join('\n');
                return '<tr><td>' + esc(a.attempt) + '</td><td>' + esc(a.createdAt) + '</td><td>' + esc(a.method + ' ' + a.url) + '</td><td class="' + (a.status === 'succeeded' ? 'ok' : 'bad') + '">' +
                  esc(a.responseStatus === null ? a.error : a.responseStatus) + '</td><td>' + esc(a.latencyMs) + ' ms</td><td>' + checks[i] + '</td><td><pre>' + fields + '</pre></td></tr>';
              }).join('');
              var head = '<tr><td>' + esc(d.createdAt) + '</td><td>' + esc(d.event) + '</td><td>' + esc(d.accountId) + '</td><td class="' + (d.status === 'delivered' ? 'ok' : d.status === 'failed' ? 'bad' : 'warn') + '">' +
                esc(d.status) + '</td><td>' + esc(d.attempts + ' of ' + d.maxAttempts) + '</td><td>' + esc(d.nextAttemptAt || '') + '</td><td>' + esc(d.reason || '') + '</td></tr>';
              return head + (rows ? '<tr><td colspan="7"><details><summary>Attempts of ' + esc(d.event) + ' ' + esc(d.resourceId) + '</summary><table><thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">Request</th><th scope="col">Answer</th><th scope="col">Latency</th><th scope="col">X-Signature</th><th scope="col">Form fields</th></tr></thead><tbody>' + rows + '</tbody></table></details></td></tr>' : '');
            });
          })).then(function (rows) {
            if (!rows.length) return '<h2>Webhooks</h2><p class="muted">No webhook deliveries yet.</p>';
            return '<h2>Webhooks</h2><table><thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Account</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col">Reason</th></tr></thead><tbody>' + rows.join('') + '</tbody></table>';
          });
        });
      });
    },
    dns: function (part) {
      return control('/dns').then(function (zone) {
        var head = '<h2>DNS</h2>' + table(['Name', 'Type', 'Values'], (zone.records || []).map(function (r) {
          return [esc(r.name), esc(r.type), '<code>' + esc(JSON.stringify(r.values || r.value || r)) + '</code>'];
        }), 'The fake DNS holds no records.') + (zone.failures && zone.failures.length ? '<h3>Scripted failures</h3><pre>' + esc(JSON.stringify(zone.failures, null, 2)) + '</pre>' : '');
        return perAccount('dns', part, function (account) {
          return api(account, '/email-domains?pageSize=100').then(function (r) {
            return '<h2>Email domains</h2>' + table(['Domain', 'Status', 'Records'], r.data.map(function (d) {
              return [esc(d.domain || d.name), esc(d.status), '<details><summary>details</summary><pre>' + esc(JSON.stringify(d, null, 2)) + '</pre></details>'];
            }), 'No email domains in this account.');
          });
        }).then(function (html) { return head + html; });
      });
    },
    clock: function () {
      return Promise.all([control('/clock'), control('/clock/jobs')]).then(function (r) {
        return '<h2>Clock</h2><p>Now <strong>' + esc(r[0].now) + '</strong>, mode ' + esc(r[0].mode) + '.</p>' + table(['Due', 'Kind', 'Job'], r[1].data.map(function (j) {
          return [esc(j.due), esc(j.kind), esc(j.id)];
        }), 'No pending jobs.');
      });
    }
  };

  // X-Signature: Base64 HMAC-SHA256 over the URL followed by the sorted form fields (docs/webhooks.md).
  function verify(key, attempt) {
    var sig = attempt.requestHeaders && (attempt.requestHeaders['X-Signature'] || attempt.requestHeaders['x-signature']);
    if (!sig) return Promise.resolve('<span class="bad">missing</span>');
    if (!key || !window.crypto || !crypto.subtle) return Promise.resolve('<span class="muted">not checked</span>');
    var fields = attempt.method === 'GET' ? {} : (attempt.requestFields || {});
    var base = attempt.url + Object.keys(fields).sort().map(function (k) { return k + fields[k]; }).join('');
    var enc = new TextEncoder();
    return crypto.subtle.importKey('raw', enc.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']).then(function (k) {
      return crypto.subtle.sign('HMAC', k, enc.encode(base));
    }).then(function (mac) {
      var bin = '';
      new Uint8Array(mac).forEach(function (b) { bin += String.fromCharCode(b); });
      return btoa(bin) === sig ? '<span class="ok">valid</span>' : '<span class="bad">invalid</span>';
    }, function () { return '<span class="muted">not checked</span>'; });
  }

  function route() {
    var parts = (location.hash.replace(/^#\/?/, '') || 'accounts').split('/');
    return { name: parts[0], part: parts[1] ? decodeURIComponent(parts[1]) : '' };
  }

  function refreshClock() {
    return control('/clock').then(function (c) {
      if (lastNow !== null && c.now < lastNow) {
        accountsCache = null;
        say('The simulator was reset or its state restored: the clock went back from ' + lastNow + ' to ' + c.now + '. The views show the new state.');
      }
      lastNow = c.now;
      document.getElementById('now').textContent = c.now;
      document.getElementById('clock-mode').textContent = c.mode;
      document.getElementById('pending').textContent = c.pendingJobs + (c.pendingJobs === 1 ? ' pending job' : ' pending jobs');
    });
  }

  // One render at a time; events that arrive meanwhile ask for one more.
  function render() {
    if (rendering) { again = true; return Promise.resolve(); }
    rendering = true;
    var r = route();
    document.querySelectorAll('nav a').forEach(function (a) {
      if (a.getAttribute('href') === '#/' + r.name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
    var show = views[r.name] || familyView(r.name);
    var work = refreshClock().then(function () {
      tokenForm.hidden = true;
      if (!show) return '<div class="notice error">There is no view called ' + esc(r.name) + '. Choose one above.</div>';
      return show(r.part);
    }).then(function (html) { view.innerHTML = html; loadAudio(); }, function (e) {
      if (e instanceof Failure && e.status === 401 && e.path.indexOf('/_sim') === 0) {
        tokenForm.hidden = false;
        view.innerHTML = '';
        say(token ? 'The control plane refused the token; enter the right one.' : 'Enter the control-plane token to continue.', !!token);
        return;
      }
      view.innerHTML = '<div class="notice error">' + esc(explain(e)) + '</div>';
    });
    return work.then(function () {
      rendering = false;
      if (again) { again = false; return render(); }
    });
  }

  function listen() {
    var headers = token ? { authorization: 'Bearer ' + token } : {};
    fetch('/_sim/events', { headers: headers }).then(function (res) {
      if (!res.ok || !res.body) { live.textContent = 'live updates unavailable (' + res.status + ')'; return; }
      live.textContent = 'live';
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) { live.textContent = 'live updates stopped: reload the page'; return; }
          buffer += decoder.decode(chunk.value, { stream: true });
          var cut = buffer.lastIndexOf('\n\n');
          if (cut >= 0) { buffer = buffer.slice(cut + 2); render(); }
          return pump();
        });
      }
      return pump();
    }).catch(function () { live.textContent = 'live updates stopped: reload the page'; });
  }

  document.querySelectorAll('[data-advance]').forEach(function (b) {
    b.addEventListener('click', function () {
      var step = b.getAttribute('data-advance');
      var body = step === 'next' ? null : { seconds: Number(step) };
      var go = body ? Promise.resolve(body) : control('/clock/jobs').then(function (j) {
        if (!j.data.length) throw new Error('no job is pending');
        return { to: j.data[0].due };
      });
      go.then(function (b2) { return request('POST', '/_sim/clock/advance', { body: b2 }); })
        .then(function () { say(''); return render(); }, function (e) { say(e instanceof Failure ? explain(e) : 'Cannot advance: ' + e.message, true); });
    });
  });
  document.getElementById('view').addEventListener('change', function (e) {
    if (e.target.id === 'account') location.hash = '#/' + e.target.getAttribute('data-base') + '/' + encodeURIComponent(e.target.value);
  });
  tokenForm.addEventListener('submit', function (e) {
    e.preventDefault();
    token = document.getElementById('token').value;
    sessionStorage.setItem('sim-control-token', token);
    say('');
    render().then(listen);
  });
  linkFamilyViews();
  window.addEventListener('hashchange', function () { render(); document.getElementById('main').focus(); });
  render().then(function () { if (tokenForm.hidden) listen(); });
})();`;
