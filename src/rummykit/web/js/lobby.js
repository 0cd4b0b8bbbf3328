// The lobby: create a table (variant, preset, rule options, seats), see open tables and
// finished games.
import { api, clear, fill, h, playerName, setPlayerName, setToken, setTopbar, toast } from "./api.js";
import { has, t, withLanguage } from "./i18n.js";
import { botLevel, choiceLabel, gameTitle, optionLabel, presetLabel, seatName } from "./names.js";


// An option's value under a preset (the preset lists only what it changes).
function presetValue(option, preset) {
  return preset && Object.prototype.hasOwnProperty.call(preset, option.name) ? preset[option.name] : option.default;
}

function optionInput(option, preset) {
  const id = `opt-${option.name}`;
  const value = presetValue(option, preset);
  let input;
  if (option.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: option.name, checked: value });
  } else if (option.kind === "choice") {
    const chosen = value === null || value === undefined ? option.default : String(value);
    input = h("select", { id, name: option.name },
      option.choices.map((c) => h("option", { value: c, selected: c === chosen }, choiceLabel(c))));
  } else if (option.kind === "text") {
    input = h("input", { type: "text", id, name: option.name, value, size: 10, maxlength: 40 });
  } else {
    input = h("input", { type: "number", id, name: option.name, value, step: 1, inputmode: "numeric" });
  }
  return h("label", { class: "option", for: id }, h("span", {}, optionLabel(option.name)), input);
}

// Only the options changed from the chosen preset are sent; the server validates them.
function readOptions(form, variant, preset) {
  const options = {};
  for (const option of variant.options) {
    const input = form.querySelector(`[name="${option.name}"]`);
    if (!input) continue;
    let value;
    if (option.kind === "bool") value = input.checked;
    else if (option.kind === "int") value = Number.parseInt(input.value, 10);
    else value = input.value;
    const base = presetValue(option, preset);
    if (String(value) !== String(base === null ? option.default : base)) options[option.name] = value;
  }
  return options;
}

function seatRow(index, variant, isFirst) {
  const kind = h("select", { name: `seat-${index}-kind`, "data-testid": `seat-${index}-kind` },
    h("option", { value: "human", selected: isFirst }, index === 0 ? t("lobby.seat_you") : t("lobby.seat_person")),
    h("option", { value: "bot", selected: !isFirst }, t("lobby.seat_bot")));
  const level = h("select", { name: `seat-${index}-level`, "data-testid": `seat-${index}-level` },
    variant.bot_levels.map((l) => h("option", { value: l, selected: l === (variant.default_bot_level || "heuristic") }, botLevel(l))));
  const sync = () => { level.hidden = kind.value !== "bot"; };
  kind.addEventListener("change", sync);
  sync();
  return h("div", { class: "seat-row" }, h("span", { class: "seat-label" }, t("seat.number", { number: index + 1 })), kind, level);
}

function renderForm(container, variants) {
  const form = h("form", { class: "card-panel create-form", "data-testid": "create-form" });
  const variantSelect = h("select", { name: "variant", "data-testid": "variant" },
    variants.map((v) => h("option", { value: v.name }, gameTitle(v.name, v.title))));
  const presetSelect = h("select", { name: "preset", "data-testid": "preset" });
  const rulesLink = h("a", { target: "_blank", rel: "noopener", class: "rules-link", "data-testid": "rules-link" });
  const seatCount = h("select", { name: "seats" });
  const seatsBox = h("div", { class: "seats-box" });
  const optionsBox = h("div", { class: "options-grid" });
  const nameInput = h("input", { name: "name", value: playerName(), maxlength: 24, placeholder: t("lobby.name_placeholder"), "data-testid": "player-name" });
  const current = () => variants.find((v) => v.name === variantSelect.value);
  const showVariant = () => {
    const variant = current();
    rulesLink.hidden = !variant.rules_url;
    if (variant.rules_url) { rulesLink.href = withLanguage(variant.rules_url); rulesLink.textContent = t("lobby.rules_of", { game: gameTitle(variant.name, variant.title) }); }
    fill(presetSelect, ...Object.keys(variant.presets).map((p) => h("option", { value: p }, presetLabel(p))));
    presetSelect.hidden = Object.keys(variant.presets).length < 2;
    clear(seatCount);
    // Rami and Carousel are best with a few players: offer 4 and 3 seats first.
    const usual = { rami: 4, carousel: 3 }[variant.name] || variant.min_seats;
    for (let n = variant.min_seats; n <= variant.max_seats; n += 1) seatCount.append(h("option", { value: n, selected: n === usual }, t("lobby.seats", { count: n })));
    seatCount.hidden = variant.min_seats === variant.max_seats;
    fillSeats();
    showOptions();
  };
  const showOptions = () => {
    const variant = current();
    fill(optionsBox, ...variant.options.map((o) => optionInput(o, variant.presets[presetSelect.value])));
  };
  const fillSeats = () => {
    const variant = current();
    const n = Number(seatCount.value || variant.min_seats);
    fill(seatsBox, ...Array.from({ length: n }, (_, i) => seatRow(i, variant, i === 0)));
  };
  variantSelect.addEventListener("change", showVariant);
  presetSelect.addEventListener("change", showOptions);
  seatCount.addEventListener("change", fillSeats);
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "create-table" }, t("lobby.create"));
  form.append(
    h("h2", {}, t("lobby.new_table")),
    h("div", { class: "form-row" }, h("label", {}, t("lobby.game"), " ", variantSelect), h("label", {}, t("lobby.preset"), " ", presetSelect), seatCount, rulesLink),
    h("div", { class: "form-row" }, h("label", {}, t("lobby.your_name"), " ", nameInput)),
    seatsBox,
    h("details", { class: "rule-options" }, h("summary", {}, t("lobby.rule_options")), optionsBox),
    h("div", { class: "form-row" }, submit));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const variant = current();
    const n = seatsBox.querySelectorAll(".seat-row").length;
    const name = nameInput.value.trim();
    if (name) setPlayerName(name);
    const seats = [];
    for (let i = 0; i < n; i += 1) {
      const kind = form.querySelector(`[name="seat-${i}-kind"]`).value;
      const seat = { kind };
      // Bots are named by seat so that several of them can be told apart at the table.
      if (kind === "bot") { seat.level = form.querySelector(`[name="seat-${i}-level"]`).value; seat.name = `Bot ${i + 1}`; }
      seats.push(seat);
    }
    const firstHuman = seats.findIndex((s) => s.kind === "human");
    if (firstHuman >= 0 && name) seats[firstHuman].name = name;
    submit.disabled = true;
    try {
      const created = await api("/api/tables", {
        method: "POST",
        body: { variant: variant.name, preset: presetSelect.value, options: readOptions(form, variant, variant.presets[presetSelect.value]), seats },
      });
      const tableId = created.table.id;
      sessionStorage.setItem(`rummykit:invites:${tableId}`, JSON.stringify(created.invites));
      const mine = created.invites[0];
      if (mine) setToken(tableId, mine.token);
      location.assign(`/t/${tableId}`);
    } catch (error) {
      toast(error.message);
      submit.disabled = false;
    }
  });
  showVariant();
  container.appendChild(form);
}

function tableList(title, tables, { link, empty, testid }) {
  const rows = tables.map((table) => {
    const names = table.seats.map(seatName).join(t("lobby.versus"));
    const score = table.summary && table.summary.scores ? ` · ${table.summary.scores.join("–")}` : "";
    const status = has(`status.${table.status}`) ? t(`status.${table.status}`) : table.status;
    return h("li", {}, h("a", { href: link(table) }, names),
      h("span", { class: "muted" }, ` ${table.preset ? presetLabel(table.preset) : gameTitle(table.variant, table.title)} · ${status}${score}`));
  });
  return h("section", { class: "card-panel", "data-testid": testid }, h("h2", {}, title),
    rows.length ? h("ul", { class: "table-list" }, rows) : h("p", { class: "muted" }, empty));
}

export async function showLobby(root) {
  setTopbar(t("lobby.topbar"));
  clear(root);
  const page = h("div", { class: "lobby" });
  root.appendChild(page);
  try {
    const [variants, open, finished] = await Promise.all([
      api("/api/variants"),
      api("/api/tables?limit=20"),
      api("/api/games?limit=20"),
    ]);
    renderForm(page, variants);
    const live = open.filter((t) => t.status !== "finished");
    page.appendChild(tableList(t("lobby.in_play"), live, {
      link: (table) => `/t/${table.id}`, empty: t("lobby.none_open"), testid: "open-tables",
    }));
    page.appendChild(tableList(t("lobby.finished"), finished, {
      link: (table) => `/replay/${table.id}`, empty: t("lobby.none_finished"), testid: "finished-games",
    }));
  } catch (error) {
    page.appendChild(h("p", { class: "error-text" }, error.message));
  }
}
