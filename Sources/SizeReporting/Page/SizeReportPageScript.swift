/// The report page's script: draws the per-device, change and problem views from the embedded
/// data, a page of rows at a time, with plain buttons, selects and inputs (keyboard-usable as
/// they are). Text goes in through `textContent` only, so no asset name can become markup.
///
/// The data (`SizeReportPage.data`): `names` (asset names), `pictures` (data URLs), `picture`
/// (per name, the current build's picture or -1), `packs` ([id, tags, category]), `devices`
/// ([id, name, [install, unpacked, on demand, unpacked], [[pack, bytes, unpacked]],
/// [[name, bytes, pack, files]]]), `changes` (null, or {devices: [[id, install before, after,
/// on demand before, after]], assets: [[name, kind, before, after, picture before, after]]}),
/// `overBudget` (one sentence per cause, `BudgetFailure`), `problems` (null when the build's report.json was not found).
enum SizeReportPageScript {
    static let javaScript = #"""
    "use strict";
    (function () {
    const D = JSON.parse(document.getElementById("report-data").textContent);
    const ROWS = 50;
    const CATEGORY = {"initial-install": "install", "prefetch": "prefetch", "on-demand": "on demand"};
    function size(b) {
      if (b === 0) return "Zero KB";
      const a = Math.abs(b);
      const s = a < 1e6 ? Math.max(1, Math.round(a / 1e3)) + " KB" : a < 1e9 ? (a / 1e6).toFixed(1) + " MB" : (a / 1e9).toFixed(1) + " GB";
      return (b < 0 ? "−" : "") + s;
    }
    // Small changes in bytes: "+1 KB" would hide that 14 KB became 14 KB.
    function signed(b) { return b === 0 ? "0" : (b > 0 ? "+" : "−") + (Math.abs(b) < 1000 ? Math.abs(b) + " B" : size(Math.abs(b))); }
    function el(tag, attributes, ...children) {
      const e = document.createElement(tag);
      for (const key in attributes || {}) {
        if (key === "text") e.textContent = attributes[key]; else e.setAttribute(key, attributes[key]);
      }
      for (const child of children) if (child !== null && child !== undefined) e.append(child);
      return e;
    }
    function td(text, cls) { return el("td", cls ? {class: cls} : {}, text); }
    function picture(index, name, when) {
      const what = (when ? when + " picture of " : "Picture of ") + name;
      if (index < 0) return el("span", {class: "nopic", role: "img", "aria-label": "No " + what.charAt(0).toLowerCase() + what.slice(1)});
      return el("img", {class: "thumb", src: D.pictures[index], alt: what, width: "32", height: "32", decoding: "async"});
    }
    function tags(pack) { return pack < 0 ? "" : D.packs[pack][1].length ? D.packs[pack][1].join(", ") : "(untagged)"; }
    function shareBar(value, largest) {
      const bar = el("span", {class: "share", "aria-hidden": "true"});
      bar.style.width = (largest > 0 ? Math.max(1, 100 * value / largest) : 0) + "%";
      return el("td", {class: "share-cell"}, bar);
    }
    function delta(b) { return el("td", {class: b > 0 ? "grew" : b < 0 ? "shrank" : ""}, signed(b)); }

    // A table of `rows`, ROWS at a time, with Previous and Next buttons and a live page count.
    function pagedTable(container, caption, headers, rows, renderRow) {
      let page = 0, current = rows;
      const tbody = el("tbody"), status = el("span", {"aria-live": "polite"});
      const table = el("table", {}, el("caption", {text: caption}),
        el("thead", {}, el("tr", {}, ...headers.map(h => el("th", {scope: "col", class: h[1] || ""}, h[0])))), tbody);
      const previous = el("button", {type: "button"}, "Previous"), next = el("button", {type: "button"}, "Next");
      const nav = el("nav", {class: "pager", "aria-label": caption + ": pages"}, previous, status, next);
      function draw() {
        const pages = Math.max(1, Math.ceil(current.length / ROWS));
        page = Math.min(Math.max(page, 0), pages - 1);
        tbody.replaceChildren(...current.slice(page * ROWS, (page + 1) * ROWS).map(renderRow));
        status.textContent = "Page " + (page + 1) + " of " + pages + " (" + current.length + " rows)";
        previous.disabled = page === 0;
        next.disabled = page >= pages - 1;
      }
      previous.addEventListener("click", () => { page--; draw(); });
      next.addEventListener("click", () => { page++; draw(); });
      container.append(table, nav);
      draw();
      return {rows(r) { current = r; page = 0; draw(); }};
    }

    function filterBox(container, label, id, onInput) {
      const input = el("input", {type: "search", id: id});
      input.addEventListener("input", () => onInput(input.value.trim().toLowerCase()));
      container.append(el("label", {for: id}, label + " "), input);
      return input;
    }

    const deviceView = document.getElementById("device-view");
    function showDevice(index) {
      const d = D.devices[index];
      const totals = d[2], packs = d[3], assets = d[4];
      const view = [];
      view.push(el("p", {}, el("strong", {text: "Install: "}), size(totals[0]) + " (" + size(totals[1]) + " unpacked). ",
        el("strong", {text: "On demand: "}), size(totals[2]) + " (" + size(totals[3]) + " unpacked)."));
      // Stacked bars: every pack; the on-demand packs alone (small beside an install); the
      // biggest assets against the rest.
      function stacked(label, parts) {
        const sum = parts.reduce((s, p) => s + p[1], 0);
        const bar = el("div", {class: "bar", role: "img", "aria-label": label + ": " + parts.map(p => p[0] + " " + size(p[1])).join("; ")});
        parts.forEach((p, i) => {
          const part = el("span", {class: p[2] + (i % 2 ? " odd" : ""), title: p[0] + ": " + size(p[1])});
          part.style.width = (sum > 0 ? 100 * p[1] / sum : 0) + "%";
          bar.append(part);
        });
        return bar;
      }
      const packPart = p => [tags(p[0]) + " (" + CATEGORY[D.packs[p[0]][2]] + ")", p[1], D.packs[p[0]][2]];
      view.push(el("h3", {text: "Where the bytes go"}), el("p", {class: "muted", text: "Every pack"}),
        stacked("Packs of " + d[1], packs.map(packPart)));
      const deferred = packs.filter(p => D.packs[p[0]][2] !== "initial-install");
      if (deferred.length) {
        view.push(el("p", {class: "muted", text: "Prefetch and on-demand packs"}), stacked("Prefetch and on-demand packs of " + d[1], deferred.map(packPart)));
      }
      const top = assets.slice(0, 12), rest = assets.slice(12).reduce((s, a) => s + a[1], 0);
      const assetParts = top.map(a => [D.names[a[0]], a[1], "asset"]);
      if (rest > 0) assetParts.push(["the other " + (assets.length - 12) + " assets", rest, "rest"]);
      view.push(el("p", {class: "muted", text: "The biggest assets, and the rest"}), stacked("Assets of " + d[1], assetParts),
        el("ul", {class: "legend"}, ...Object.keys(CATEGORY).map(c => el("li", {}, el("i", {class: c, "aria-hidden": "true"}), CATEGORY[c]))));
      view.push(el("h3", {text: "Packs"}));
      const packHolder = el("div"), assetHolder = el("div"), controls = el("div", {class: "controls"});
      view.push(packHolder, el("h3", {text: "Assets, biggest first"}), controls, assetHolder);
      deviceView.replaceChildren(...view);
      const largestPack = packs.reduce((m, p) => Math.max(m, p[1]), 0);
      pagedTable(packHolder, "Packs of " + d[1], [["Tags", "name"], ["Pack", "name"], ["Delivery", "name"], ["Bytes"], ["Unpacked"], ["Share", "name"]],
        packs, p => el("tr", {}, td(tags(p[0]), "name"), el("td", {class: "name"}, el("code", {text: D.packs[p[0]][0]})),
          td(CATEGORY[D.packs[p[0]][2]], "name"), td(size(p[1])), td(size(p[2])), shareBar(p[1], largestPack)));
      const largest = assets.length ? assets[0][1] : 0;
      const table = pagedTable(assetHolder, "Assets of " + d[1], [["Picture", "name"], ["Asset", "name"], ["Pack tags", "name"], ["Files"], ["Bytes"], ["Share", "name"]],
        assets, a => el("tr", {}, el("td", {class: "name"}, picture(D.picture[a[0]], D.names[a[0]])), td(D.names[a[0]], "name"),
          td(tags(a[2]), "name"), td(String(a[3])), td(size(a[1])), shareBar(a[1], largest)));
      filterBox(controls, "Find an asset", "asset-filter", text =>
        table.rows(text ? assets.filter(a => D.names[a[0]].toLowerCase().includes(text)) : assets));
    }
    const select = document.getElementById("device-select");
    select.addEventListener("change", () => showDevice(Number(select.value)));
    if (D.devices.length) showDevice(0); else deviceView.replaceChildren(el("p", {text: "The build has no device classes (no pack stage)."}));

    const changesView = document.getElementById("changes-view");
    if (!D.changes) {
      changesView.append(el("p", {class: "muted", text: "Not compared with a previous build: give tessera report --against a previous build's manifest."}));
    } else {
      const names = Object.fromEntries(D.devices.map(d => [d[0], d[1]]));
      const devices = el("div"), assets = el("div"), controls = el("div", {class: "controls"});
      changesView.append(devices, el("h3", {text: "Assets that changed"}), controls, assets);
      pagedTable(devices, "Install and on-demand bytes per device class, before and after",
        [["Device class", "name"], ["Install before"], ["Install after"], ["Δ"], ["On demand before"], ["On demand after"], ["Δ"]],
        D.changes.devices, c => el("tr", {}, td(names[c[0]] + " (" + c[0] + ")", "name"), td(size(c[1])), td(size(c[2])), delta(c[2] - c[1]),
          td(size(c[3])), td(size(c[4])), delta(c[4] - c[3])));
      const rows = D.changes.assets;
      if (!rows.length) {
        assets.append(el("p", {text: "No asset changed."}));
      } else {
        const table = pagedTable(assets, "Assets added, removed, grown, shrunk or changed, biggest change first",
          [["Before", "name"], ["After", "name"], ["Asset", "name"], ["Change", "name"], ["Before"], ["After"], ["Δ"]],
          rows, c => el("tr", {"data-asset": D.names[c[0]]}, el("td", {class: "name"}, picture(c[4], D.names[c[0]], "Before")),
            el("td", {class: "name"}, picture(c[5], D.names[c[0]], "After")), td(D.names[c[0]], "name"), td(c[1], "name"),
            td(size(c[2])), td(size(c[3])), delta(c[3] - c[2])));
        const kind = el("select", {id: "change-kind"}, ...["all", "added", "removed", "grown", "shrunk", "changed"].map(k => el("option", {value: k}, k)));
        let text = "", wanted = "all";
        const apply = () => table.rows(rows.filter(c => (wanted === "all" || c[1] === wanted) && (!text || D.names[c[0]].toLowerCase().includes(text))));
        kind.addEventListener("change", () => { wanted = kind.value; apply(); });
        controls.append(el("label", {for: "change-kind"}, "Show "), kind);
        filterBox(controls, "Find an asset", "change-filter", value => { text = value; apply(); });
      }
    }

    const problemsView = document.getElementById("problems-view");
    if (D.problems === null) {
      problemsView.append(el("p", {class: "muted", text: "The build's report.json was not found beside its manifest."}));
    } else if (!D.problems.length) {
      problemsView.append(el("p", {text: "No warnings or failures."}));
    } else {
      const errors = D.problems.filter(p => p[0]).length;
      problemsView.append(el("p", {text: errors + " failures, " + (D.problems.length - errors) + " warnings."}));
      pagedTable(problemsView, "Warnings and failures of the build", [["Severity", "name"], ["Stage", "name"], ["File", "name"], ["Reason", "name"]],
        D.problems, p => el("tr", {}, td(p[0] ? "failure" : "warning", p[0] ? "name grew" : "name"), td(p[2], "name"),
          el("td", {class: "name"}, el("code", {text: p[1]})), td(p[3], "name")));
    }
    })();
    """#
}
