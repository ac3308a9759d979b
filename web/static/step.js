// Arrow keys step through a game: left and right a move back and on,
// Home and End to the start and to the last move. The page works without.
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  var t = e.target;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
  var step = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[e.key];
  var a = step && document.querySelector('a[data-step="' + step + '"]');
  if (a) {
    e.preventDefault();
    location.href = a.href;
  }
});
