// The rules of the five games, from the catalogue (rules.<game>.*), with worked examples drawn
// by the same layout renderer as the table (the seeds' diagrams).
import { t, points, has, loadRules } from "./i18n.js";
import { el, svg, tilesWords } from "./common.js";
import { renderLayout } from "./layoutview.js";

export const GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"];

async function example(game, actions, caption) {
  const fig = el("figure", { class: "rules-example" });
  const s = svg("svg", { class: "board example", role: "img" });
  fig.append(s);
  const cap = el("figcaption", {});
  fig.append(cap);
  try {
    const r = await fetch(`/api/example?game=${encodeURIComponent(game)}&actions=${encodeURIComponent(actions)}`);
    const data = await r.json();
    renderLayout(s, data.layout, { width: 640, height: 300, unit: 30, maxUnit: 30 });
    const ex = data.layout;
    const sum = ex.contributions.map((c) => c.counted).join(" + ") || "0";
    const sentence = t("common.scoring_sentence", { sum, total: ex.ends_total, points: points(data.points) });
    s.setAttribute("aria-label", `${tilesWords(ex.tiles)}: ${sentence}`);
    cap.append(el("strong", {}, sentence), caption ? ` — ${caption}` : "");
  } catch {
    cap.textContent = caption || "";
  }
  return fig;
}

// A small markup: "## " heading, "- " bullet, "| a | b |" table rows, "@example ACTIONS | caption",
// blank lines between paragraphs. Its headings are one level under the place's own (h2 under the
// rules page's h1, h3 under the table's rules dialog's h2): a screen reader's outline has no gap.
export async function renderRulesInto(container, game, level = 2) {
  await loadRules();
  container.replaceChildren();
  const text = t(`rules.${game}.body`);
  const blocks = text.split(/\n\s*\n/);
  const pending = [];
  if (has(`rules.${game}.intro`)) container.append(el("p", { class: "rules-intro" }, t(`rules.${game}.intro`)));
  for (const block of blocks) {
    const lines = block.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim());
    if (!lines.length) continue;
    if (lines[0].startsWith("## ")) {
      container.append(el(`h${level}`, { class: "rules-heading" }, lines[0].slice(3)));
      lines.shift();
      if (!lines.length) continue;
    }
    if (lines.every((l) => l.startsWith("- "))) {
      container.append(el("ul", {}, lines.map((l) => el("li", {}, l.slice(2)))));
    } else if (lines.every((l) => l.startsWith("|"))) {
      const rows = lines.filter((l) => !/^\|[-\s|]+\|$/.test(l)).map((l) => l.slice(1, -1).split("|").map((c) => c.trim()));
      const [head, ...body] = rows;
      container.append(el("table", { class: "rules-table" },
        el("thead", {}, el("tr", {}, head.map((c) => el("th", { scope: "col" }, c)))),
        el("tbody", {}, body.map((r) => el("tr", {}, r.map((c) => el("td", {}, c)))))));
    } else if (lines[0].startsWith("@example ")) {
      for (const l of lines) {
        const body = l.slice(9);
        const cut = body.indexOf(" | ");
        const acts = (cut < 0 ? body : body.slice(0, cut)).trim();
        const caption = cut < 0 ? "" : body.slice(cut + 3).trim();
        const holder = el("div", {});
        container.append(holder);
        pending.push(example(game, acts, caption).then((fig) => holder.replaceWith(fig)));
      }
    } else {
      container.append(el("p", {}, lines.join(" ")));
    }
  }
  await Promise.all(pending);
}
