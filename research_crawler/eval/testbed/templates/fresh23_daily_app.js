// Paperfeed Daily: draws the trending list (infinite scroll) and the weekly and monthly views from the JSON API.
(function () {
  "use strict";
  function card(p) {
    var li = document.createElement("li");
    li.className = "paper-card";
    var a = document.createElement("a");
    a.href = "/papers/" + p.id;
    a.textContent = p.title;
    var h = document.createElement("h3");
    h.appendChild(a);
    li.appendChild(h);
    var meta = document.createElement("p");
    meta.className = "meta";
    meta.textContent = p.authors[0].name + " · " + p.authors.length + " authors · ▲ " + p.upvotes;
    li.appendChild(meta);
    return li;
  }
  var trending = document.getElementById("trending");
  if (trending) {
    var list = trending.querySelector("ul");
    var cursor = "";
    var loading = false;
    function more() {
      if (loading || cursor === null) return;
      loading = true;
      fetch("/api/papers/trending?limit=10" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""))
        .then(function (r) { return r.json(); })
        .then(function (data) {
          data.papers.forEach(function (p) { list.appendChild(card(p)); });
          cursor = data.nextCursor;
          loading = false;
        });
    }
    new IntersectionObserver(function (entries) {
      if (entries[0].isIntersecting) more();
    }).observe(document.getElementById("sentinel"));
    more();
  }
  var period = document.getElementById("period");
  if (period) {
    fetch("/api/daily_papers?" + period.dataset.kind + "=" + period.dataset.value)
      .then(function (r) { return r.json(); })
      .then(function (data) {
        var ul = period.querySelector("ul");
        data.forEach(function (entry) { ul.appendChild(card(entry.paper)); });
      });
  }
})();
