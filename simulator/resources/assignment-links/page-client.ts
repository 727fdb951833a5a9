// The issuing page's script, sent inline as text: it walks the person through the session
// operations (subscriber type, consents, identity verification at the provider, finalize) with
// plain fetch calls, shows one step at a time, announces errors in a live region and moves focus
// to each step's heading. After issuing it shows the return button and asks the browser to follow
// it after a short delay with a meta refresh (no timers; the number is never in that address).
export const ASSIGN_CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var T = JSON.parse(document.getElementById('texts').textContent);
  var state = JSON.parse(document.getElementById('session').textContent);
  var token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop());
  var lang = document.documentElement.lang;
  var api = '/v1/assignment-sessions/' + encodeURIComponent(token);
  var alertBox = document.getElementById('alert');
  var STEPS = ['selectType', 'consents', 'verify', 'ready', 'done'];

  function say(text) { alertBox.textContent = text || ''; }
  function busy(on) { document.getElementById('main').setAttribute('aria-busy', on ? 'true' : 'false'); }

  function show(step) {
    STEPS.forEach(function (s) {
      var section = document.getElementById('step-' + s);
      if (section) section.hidden = s !== step;
      var item = document.getElementById('progress-' + s);
      if (item) { if (s === step) item.setAttribute('aria-current', 'step'); else item.removeAttribute('aria-current'); }
    });
    var heading = document.getElementById('heading-' + step);
    if (heading) heading.focus();
  }

  function post(path, body) {
    busy(true);
    return fetch(api + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) { busy(false); return { status: r.status, body: j }; });
    }, function () { busy(false); return { status: 0, body: {} }; });
  }

  function failed(res) {
    var code = res.body && res.body.code;
    if (res.status === 410 || res.status === 403 || code === 'ASSIGNMENT_SESSION_USED') { location.replace(location.pathname + '?lang=' + lang); return; }
    say(T.errors[code] || T.errors.generic);
  }

  function done(number) {
    document.getElementById('assigned-number').textContent = number;
    var back = document.getElementById('return');
    if (state.returnUrl) {
      back.href = state.returnUrl;
      back.hidden = false;
      document.getElementById('return-soon').hidden = false;
      var meta = document.createElement('meta');
      meta.httpEquiv = 'refresh';
      meta.content = '5;url=' + state.returnUrl;
      document.head.appendChild(meta);
    }
    show('done');
  }

  document.getElementById('form-type').addEventListener('submit', function (e) {
    e.preventDefault();
    var picked = document.querySelector('input[name="subscriberType"]:checked');
    if (!picked) { say(T.errors.INVALID_SUBSCRIBER_TYPE); return; }
    say('');
    post('/subscriber-type', { subscriberType: picked.value }).then(function (res) {
      if (res.status === 200) show('consents'); else failed(res);
    });
  });

  document.getElementById('form-consents').addEventListener('submit', function (e) {
    e.preventDefault();
    var items = Array.prototype.map.call(document.querySelectorAll('input[name="clause"]'), function (box) {
      return { clauseKey: box.value, agreed: box.checked };
    });
    say('');
    post('/consents', { items: items }).then(function (res) {
      if (res.status === 200) show('verify'); else failed(res);
    });
  });

  document.getElementById('verify-start').addEventListener('click', function () {
    say('');
    post('/identity-verifications').then(function (res) {
      if (res.status === 201) location.assign('/identity/' + encodeURIComponent(res.body.identityVerificationId) + '?lang=' + lang);
      else failed(res);
    });
  });

  document.getElementById('finalize').addEventListener('click', function () {
    var button = this;
    button.disabled = true;
    say('');
    post('/finalize').then(function (res) {
      if (res.status === 201) done(res.body.assignedNumber);
      else { button.disabled = false; failed(res); }
    });
  });

  var params = new URLSearchParams(location.search);
  if (params.get('identityVerificationId') && state.step === 'verify') {
    // Back from the provider: ask for the result, then drop the id from the address.
    history.replaceState(null, '', location.pathname + '?lang=' + lang);
    post('/identity-verifications/resume').then(function (res) {
      if (res.status === 200) show('ready');
      else { show('verify'); failed(res); }
    });
  } else {
    show(state.step === 'businessInfo' ? 'ready' : state.step);
  }
})();`;
