import { collaborationEventSchema } from "@task-context/protocols";
import { raw } from "hono/html";
import { eventLineFields } from "./events.ts";
import type { Markup } from "./markup.ts";

const eventTypes = collaborationEventSchema.def.options.flatMap(
  (option) => option.def.shape.type.def.values,
);

/** JSON that is safe inside a `<script>` element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * The run page's only script (inline, nonce'd): it counts leases down every second and follows
 * the run's event stream with the page's view token from the last event rendered on. Each event
 * is appended to the list at once; then the page is fetched again and its stages, items,
 * artifacts and status replace the old ones (one renderer: the server's). EventSource resumes
 * after a dropped connection with Last-Event-ID; the script stops after run.completed or run.canceled. It builds
 * DOM nodes with textContent only, never HTML from an event.
 */
export function pageScript(): Markup {
  return raw(`(() => {
  "use strict";
  const FIELDS = ${scriptJson(eventLineFields)};
  const TYPES = ${scriptJson(eventTypes)};
  const body = document.body;
  const live = document.getElementById("live-status");
  const list = document.getElementById("events");
  const say = (text) => { if (live) live.textContent = text; };
  const countdown = (time) => {
    const seconds = Math.ceil((Date.parse(time.getAttribute("datetime")) - Date.now()) / 1000);
    if (seconds <= 0) return "expired";
    const minutes = Math.floor(seconds / 60);
    return minutes > 0 ? "in " + minutes + " min " + (seconds % 60) + " s" : "in " + seconds + " s";
  };
  const tick = () => { for (const time of document.querySelectorAll("time[data-countdown]")) time.textContent = countdown(time); };
  tick();
  setInterval(tick, 1000);
  const view = body.dataset.view;
  if (!view || body.dataset.completed === "true" || typeof EventSource !== "function") return;
  let after = Number(body.dataset.after) || 0;
  const valueAt = (event, path) => {
    let value = event;
    for (const key of path.split(".")) value = value !== null && typeof value === "object" ? value[key] : undefined;
    return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
  };
  const line = (event) => {
    const item = document.createElement("li");
    item.dataset.seq = String(event.seq);
    item.dataset.type = event.type;
    const time = document.createElement("time");
    time.setAttribute("datetime", event.at);
    time.textContent = String(event.at).slice(11, 19);
    const type = document.createElement("strong");
    type.textContent = event.type;
    const fields = document.createElement("span");
    fields.textContent = FIELDS.flatMap(([label, path]) => {
      const value = valueAt(event, path);
      return value === undefined ? [] : [label + " " + value];
    }).join(", ");
    item.append(time, " ", type, " ", fields);
    return item;
  };
  const page = location.pathname + "?view=" + encodeURIComponent(view);
  let running = false;
  let again = false;
  let timer;
  const refresh = async () => {
    if (running) { again = true; return; }
    running = true;
    try {
      const response = await fetch(page, { headers: { Accept: "text/html" }, cache: "no-store" });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
      for (const region of document.querySelectorAll("[data-region]")) {
        const next = fresh.querySelector('[data-region="' + region.dataset.region + '"]');
        if (next) region.replaceWith(document.importNode(next, true));
      }
      tick();
    } catch {
      // The next event tries again.
    } finally {
      running = false;
      if (again) { again = false; refresh(); }
    }
  };
  const source = new EventSource("/v1/runs/" + encodeURIComponent(body.dataset.runId) + "/events?view=" + encodeURIComponent(view) + "&after=" + after);
  source.onopen = () => say("Live: new events appear as they happen.");
  source.onerror = () => say(source.readyState === EventSource.CLOSED
    ? "Live updates stopped (the link may have expired). Reload the page for the latest state."
    : "Connection lost: reconnecting…");
  const onEvent = (message) => {
    const event = JSON.parse(message.data);
    if (!(event.seq > after)) return;
    after = event.seq;
    list.append(line(event));
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
    if (event.type === "run.completed" || event.type === "run.canceled") {
      source.close();
      body.dataset.completed = "true";
      say(event.type === "run.completed" ? "The run is completed." : "The run was canceled.");
    }
  };
  for (const type of TYPES) source.addEventListener(type, onEvent);
})();`);
}
