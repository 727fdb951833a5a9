// Whole views a family adds to the inspector (ES5 text spliced into the inspector's script,
// client.ts). A family's section script (its descriptor's `inspectorSections`) registers
// `window.inspectorViews.<name> = { title, render(part, h) }`; the page links it in the menu
// before the clock and shows it at #/<name>/<part>, handing it the script's own helpers, so
// the inspector names no family. `render` returns a promise of the view's HTML.
export const FAMILY_VIEWS = String.raw`
  function familyViews() { return window.inspectorViews || {}; }
  function familyView(name) {
    var v = Object.prototype.hasOwnProperty.call(familyViews(), name) ? familyViews()[name] : null;
    if (!v) return null;
    var h = { esc: esc, table: table, section: section, fact: fact, control: control, api: api, perAccount: perAccount, statusClass: statusClass, Failure: Failure };
    return function (part) { return v.render(part, h); };
  }
  function linkFamilyViews() {
    var clock = document.querySelector('nav a[href="#/clock"]');
    if (!clock) return;
    Object.keys(familyViews()).forEach(function (name) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = '#/' + name;
      a.textContent = familyViews()[name].title;
      li.appendChild(a);
      clock.parentNode.parentNode.insertBefore(li, clock.parentNode);
    });
  }
`;
