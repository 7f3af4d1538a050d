(function () {
  var data = JSON.parse(document.getElementById('stream-data').textContent);
  var list = document.getElementById('paper-list');
  if (!data.items.length) {
    var empty = document.createElement('p');
    empty.textContent = 'No papers found.';
    list.appendChild(empty);
  }
  data.items.forEach(function (paper) {
    var card = document.createElement('article');
    card.className = 'paper-card';
    var heading = document.createElement('h3');
    var link = document.createElement('a');
    link.setAttribute('href', paper.url);
    link.textContent = paper.title;
    heading.appendChild(link);
    card.appendChild(heading);
    var meta = document.createElement('p');
    meta.className = 'paper-meta';
    meta.textContent = paper.authors.join(', ') + ' \u00b7 ' + paper.date + ' \u00b7 ' + paper.topic;
    card.appendChild(meta);
    list.appendChild(card);
  });
  // Pagination: the same URLs the server-side pager of a static site would link to.
  var pager = document.getElementById('pager');
  for (var n = 1; n <= data.pages; n++) {
    var cell = document.createElement(n === data.page ? 'span' : 'a');
    if (n !== data.page) {
      cell.setAttribute('href', data.base + (data.base.indexOf('?') < 0 ? '?' : '&') + 'page=' + n);
    }
    cell.textContent = String(n);
    pager.appendChild(cell);
  }
})();
