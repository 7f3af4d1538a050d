// research-crawler's web app: forms posted as JSON to the API, live progress from server-sent events.
// Every text that came from a page or a model is set with textContent, never as HTML.
"use strict";

function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

async function postJSON(url, body) {
  const headers = { "Content-Type": "application/json" };
  const csrf = cookie("rc_csrf");
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body || {}), credentials: "same-origin" });
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  return { ok: response.ok, status: response.status, data };
}

function errorText(result) {
  const detail = result.data && result.data.detail;
  if (Array.isArray(detail)) return detail.map((d) => (d.loc ? d.loc.slice(1).join(".") + ": " : "") + d.msg).join("; ");
  return detail ? String(detail) : "the server answered " + result.status;
}

function showError(id, text) {
  const box = document.getElementById(id);
  if (!box) return;
  box.textContent = text;
  box.hidden = !text;
}

function changed(input) {
  if (!input) return false;
  if (input.tagName === "SELECT") return !input.options[input.selectedIndex].defaultSelected;
  return input.value !== input.defaultValue;
}

function setUpNewRun(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("form-error", "");
    const body = { query: form.querySelector("#query").value };
    const ticked = Array.from(form.querySelectorAll("input[name=pool_site]:checked")).map((box) => box.value);
    const typed = form.querySelector("#sites").value.split(/\s+/).filter(Boolean);
    body.sites = ticked.concat(typed);
    for (const name of ["model", "reranker", "item_kind"]) {
      const input = form.querySelector("#" + name);
      if (changed(input) && input.value.trim()) body[name] = input.value.trim();
    }
    const pages = form.querySelector("#max_subpages");
    if (changed(pages) && pages.value) body.max_subpages = Number(pages.value);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const result = await postJSON(form.dataset.action, body);
    button.disabled = false;
    if (result.ok) window.location.assign(result.data.url);
    else showError("form-error", errorText(result));
  });
}

function follow(run, after) {
  const log = document.getElementById("log");
  const source = new EventSource("/api/runs/" + encodeURIComponent(run) + "/events?after=" + after);
  source.addEventListener("log", (event) => {
    const data = JSON.parse(event.data);
    const line = document.createElement("li");
    line.textContent = data.line;
    log.appendChild(line);
    while (log.children.length > 300) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight;
  });
  const graph = document.getElementById("graph-live");
  let graphShown = 0;
  source.addEventListener("progress", (event) => {
    const data = JSON.parse(event.data);
    if (graph && data.pages_read !== graphShown && Date.now() - (graph.dataset.at || 0) > 1500) {
      graphShown = data.pages_read;  // the graph grows with each page read: fetch it again, at most every 1.5 s
      graph.dataset.at = Date.now();
      graph.src = graph.src.split("?")[0] + "?pages=" + graphShown;
    }
    for (const field of document.querySelectorAll("#progress [data-field]")) {
      const value = data[field.dataset.field];
      if (value !== undefined && value !== null) field.textContent = String(value);
    }
  });
  source.addEventListener("end", (event) => {
    source.close();
    const data = JSON.parse(event.data);
    document.getElementById("status").textContent = data.status;
    window.location.reload();
  });
}

function showSources(text) {
  const match = /\bsources?\b.*?(\d+)/i.exec(text) || /\bwhere\b.*?\bitem\s*#?(\d+)/i.exec(text);
  if (!match) return false;
  const details = document.getElementById("sources-" + match[1]);
  if (!details) { showError("follow-up-error", "there is no item " + match[1] + " in this report"); return true; }
  details.open = true;
  details.closest("tr").scrollIntoView({ block: "center" });
  details.closest("tr").classList.add("highlight");
  return true;
}

function setUpRun(card) {
  const run = card.dataset.run;
  const cancel = document.getElementById("cancel");
  if (cancel) cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    const result = await postJSON(cancel.dataset.action);
    if (!result.ok) { cancel.disabled = false; showError("action-error", errorText(result)); }
  });
  const resume = document.getElementById("resume");
  if (resume) resume.addEventListener("click", async () => {
    resume.disabled = true;
    const result = await postJSON(resume.dataset.action);
    if (result.ok) window.location.reload();
    else { resume.disabled = false; showError("action-error", errorText(result)); }
  });
  const form = document.getElementById("follow-up");
  if (form) form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("follow-up-error", "");
    const input = document.getElementById("follow-up-query");
    if (showSources(input.value)) return;
    const result = await postJSON(form.dataset.action, { query: input.value });
    if (result.ok) window.location.reload();
    else showError("follow-up-error", errorText(result));
  });
  if (card.dataset.status === "running") follow(run, document.getElementById("log").dataset.after || "0");
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("new-run");
  if (form) setUpNewRun(form);
  const card = document.getElementById("run");
  if (card) setUpRun(card);
});
