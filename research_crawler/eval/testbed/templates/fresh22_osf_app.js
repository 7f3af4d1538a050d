/* Scree Preprints — the platform's single-page application, reduced to what a visitor sees. Every route is drawn
   from the JSON:API on this origin; nothing below the header exists until this script has run. */
(function () {
  "use strict";
  var app = document.getElementById("app");
  var provider = app.getAttribute("data-provider");
  var api = "/api/v2/";
  var months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"];

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function longDate(iso) {
    var parts = iso.slice(0, 10).split("-");
    return months[parseInt(parts[1], 10) - 1] + " " + parseInt(parts[2], 10) + ", " + parts[0];
  }
  function authors(preprint) {
    var people = (preprint.embeds.contributors.data || []).filter(function (c) { return c.attributes.bibliographic; });
    return people.map(function (c) { return c.embeds.users.data.attributes.full_name; }).join(", ");
  }
  function get(url) {
    return fetch(url, { headers: { Accept: "application/vnd.api+json" } }).then(function (r) { return r.json(); });
  }

  function landing() {
    get(api + "providers/preprints/" + provider + "/subjects/").then(function (doc) {
      var list = el("ul", { "class": "subject-list" });
      doc.data.forEach(function (subject) {
        var item = el("li");
        item.appendChild(el("a", { href: "/preprints/" + provider + "/discover?subject=" + subject.id },
          subject.attributes.text));
        item.appendChild(el("span", { "class": "count" }, " (" + subject.attributes.preprint_count + ")"));
        list.appendChild(item);
      });
      var section = el("section", { "class": "browse-subjects" });
      section.appendChild(el("h2", {}, "Browse by subject"));
      section.appendChild(list);
      app.appendChild(section);
    });
  }

  function discover() {
    var params = new URLSearchParams(location.search);
    var url = api + "providers/preprints/" + provider + "/preprints/?sort=-date_created&page[size]=10";
    if (params.get("subject")) { url += "&filter[subjects]=" + encodeURIComponent(params.get("subject")); }
    var results = el("div", { "class": "search-results" });
    var more = el("button", { "class": "load-more", type: "button" }, "Load more");
    app.appendChild(results);
    function load(address) {
      more.disabled = true;
      get(address).then(function (doc) {
        doc.data.forEach(function (preprint) {
          var card = el("div", { "class": "search-result" });
          var heading = el("h4");
          heading.appendChild(el("a", { href: preprint.links.html }, preprint.attributes.title));
          card.appendChild(heading);
          card.appendChild(el("p", { "class": "contributors" }, authors(preprint)));
          card.appendChild(el("p", { "class": "date" }, "Created on " + longDate(preprint.attributes.date_created)));
          results.appendChild(card);
        });
        if (doc.links.next) {
          more.disabled = false;
          more.onclick = function () { load(doc.links.next); };
          app.appendChild(more);
        } else if (more.parentNode) {
          more.parentNode.removeChild(more);
        }
      });
    }
    load(url);
  }

  function preprint(guid) {
    get(api + "preprints/" + guid + "/?embed=contributors").then(function (doc) {
      var data = doc.data, a = data.attributes;
      app.appendChild(el("h1", { "class": "preprint-title" }, a.title));
      app.appendChild(el("p", { "class": "contributors" }, authors(data)));
      app.appendChild(el("p", { "class": "dates" },
        "Created: " + longDate(a.date_created) + " | Last edited: " + longDate(a.date_modified)));
      var download = el("a", { href: "/preprints/" + provider + "/" + guid + "/download", "class": "btn" }, "Download");
      app.appendChild(download);
      app.appendChild(el("h4", {}, "Abstract"));
      app.appendChild(el("p", { "class": "abstract" }, a.description));
      app.appendChild(el("h4", {}, "Preprint DOI"));
      app.appendChild(el("a", { href: data.links.preprint_doi }, data.links.preprint_doi));
      if (a.doi) {
        app.appendChild(el("h4", {}, "Peer-reviewed Publication DOI"));
        app.appendChild(el("a", { href: "https://doi.org/" + a.doi }, "https://doi.org/" + a.doi));
      }
      if (a.has_data_links === "available") {
        app.appendChild(el("h4", {}, "Public Data"));
        a.data_links.forEach(function (link) { app.appendChild(el("a", { href: link }, link)); });
      }
      app.appendChild(el("h4", {}, "Subjects"));
      app.appendChild(el("p", {}, a.subject_names.join(", ")));
      app.appendChild(el("h4", {}, "License"));
      app.appendChild(el("p", {}, "CC-By Attribution 4.0 International"));
    });
  }

  var path = location.pathname.replace(/\/$/, "");
  var parts = path.split("/");
  if (parts.length === 3) { landing(); }
  else if (parts[3] === "discover") { discover(); }
  else { preprint(parts[3]); }
})();
