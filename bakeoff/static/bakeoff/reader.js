// The reader's own zone and the time left before a date, for every page (base.html loads this
// file; no inline script, so that a Content-Security-Policy may forbid them).
//  - The zone the browser reports goes into the cookie bakeoff_tz: the server shows times in it
//    from the next page on (a logged-in reader's own setting comes first).
//  - Each instant (<span class="instant" data-utc data-zones>) that the server did not show in
//    the browser's zone gets it added.
//  - Each countdown (<span class="countdown">) is counted again every 30 seconds, in the words
//    the server gave it (data-left, data-passed, data-units).
//  - The language menu changes language as soon as a language is chosen.
//  - A table too wide for the window, which scrolls inside its box (.table-container), can be
//    reached with the keyboard and scrolled with the arrow keys (WCAG 2.1.1, axe-core's
//    scrollable-region-focusable); a box that does not scroll adds no stop to the tab order.
(function () {
  "use strict";

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      return "";
    }
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function inZone(date, zone) {
    var parts = {};
    new Intl.DateTimeFormat("en-GB", {
      timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    }).formatToParts(date).forEach(function (p) { parts[p.type] = p.value; });
    return parts.year + "-" + parts.month + "-" + parts.day + " " + parts.hour + ":" + parts.minute;
  }

  var zone = browserZone();
  if (zone && document.cookie.indexOf("bakeoff_tz=" + encodeURIComponent(zone)) === -1) {
    document.cookie = "bakeoff_tz=" + encodeURIComponent(zone) +
      "; path=/; max-age=31536000; SameSite=Lax";
  }

  function addReaderZone() {
    if (!zone || zone === "UTC" || zone === "Etc/UTC") return;
    document.querySelectorAll(".instant").forEach(function (el) {
      var zones = (el.getAttribute("data-zones") || "").split(" ");
      if (zones.indexOf(zone) !== -1 || el.querySelector(".reader")) return;
      var span = document.createElement("span");
      span.className = "reader";
      span.textContent = "· " + inZone(new Date(el.getAttribute("data-utc")), zone) +
        " (" + zone + ")";
      el.appendChild(document.createTextNode(" "));
      el.appendChild(span);
    });
  }

  function duration(ms, units) {
    var minutes = Math.floor(Math.abs(ms) / 60000);
    var days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60);
    minutes = minutes % 60;
    var parts = [];
    function unit(count, one, many) {
      return (count === 1 ? one : many).replace("%(count)d", String(count));
    }
    if (days) parts.push(unit(days, units[0], units[1]));
    if (hours) parts.push(unit(hours, units[2], units[3]));
    if (minutes && !days) parts.push(unit(minutes, units[4], units[5]));
    return parts.length ? parts.join(" ") : units[6];
  }

  function countDown() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-until]").forEach(function (el) {
      var units = (el.getAttribute("data-units") || "").split("|");
      if (units.length !== 7) return;
      var left = new Date(el.getAttribute("data-until")).getTime() - now;
      var words = el.getAttribute(left > 0 ? "data-left" : "data-passed") || "";
      el.textContent = words.replace("%(duration)s", duration(left, units));
      el.classList.toggle("passed", left <= 0);
      el.classList.toggle("left", left > 0);
    });
  }

  function languageMenu() {
    document.querySelectorAll("form.language-menu").forEach(function (form) {
      var select = form.querySelector("select");
      var button = form.querySelector("button");
      if (!select) return;
      if (button) button.hidden = true;
      select.addEventListener("change", function () { form.submit(); });
    });
  }

  function scrollableTables() {
    document.querySelectorAll(".table-container").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth) {
        box.setAttribute("tabindex", "0");
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }

  function start() {
    addReaderZone();
    countDown();
    languageMenu();
    scrollableTables();
    window.addEventListener("resize", scrollableTables);
    window.setInterval(countDown, 30000);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
