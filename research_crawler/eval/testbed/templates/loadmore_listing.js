// OpenReach listings: the first ten cards are in the page; "Load more" asks the portal's API for the next ten.
(function () {
  var button = document.getElementById("load-more");
  var list = document.getElementById("results");
  if (!button || !list) return;
  function text(value) {
    var span = document.createElement("span");
    span.textContent = value;
    return span.innerHTML;
  }
  button.addEventListener("click", function () {
    var source = button.getAttribute("data-source");
    if (!source) return;
    button.disabled = true;
    fetch(source, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (page) {
        page.items.forEach(function (item) {
          var card = document.createElement("li");
          card.className = "card";
          card.innerHTML =
            '<a class="card-title" href="' + text(item.url) + '">' + text(item.title) + "</a>" +
            '<div class="card-meta">' + text(item.authors.join(", ")) + " · " + text(item.published) +
            " · " + text(item.subject) + "</div>" +
            '<p class="card-summary">' + text(item.summary) + "</p>";
          list.appendChild(card);
        });
        if (page.next) {
          button.setAttribute("data-source", page.next);
          button.disabled = false;
        } else {
          button.remove();
        }
      });
  });
})();
