// The Rami 51 / Rami 40 panel: the table's combinations numbered for people from 1, with
// their owner (the JSON protocol keeps the 0-based index that actions name), the
// hand (select cards to build combinations), an opening builder whose total the server
// checks live against the threshold, lay-offs and joker swaps by click or drag onto a
// combination, discards by click or drag onto the pile, the hand sorted by suit or rank or
// dragged into the player's own order, hints, the score sheet and the end-of-round reveal. Every rule is the server's: this module sends actions (or asks
// the server to check one) and shows what comes back.
import { cardElement, faceOf, isJoker, sortCards } from "../cards.js";
import { clear, fill, h } from "../api.js";
import { language, listOf, t } from "../i18n.js";
import { errorText } from "../refusals.js";
import { VariantPanel, bubble, busyWhile, chooseDialog, fillPiles, fly, opponentsRow } from "./common.js";

const SORTS = ["suit", "rank"];

export function createPanel(root, ctx) {
  return new RamiPanel(root, ctx);
}

function splitCards(text) { return Array.isArray(text) ? text : (text ? text.split(" ").filter(Boolean) : []); }

/** A combination's name from its kind and cards ("run 6S-9S", "set of 9s"), said in the
 * reader's language rather than taken from the server's English `name`. */
function comboName(combo) {
  const cards = combo.cards.map(faceOf);
  return t(combo.kind === "run" ? "rami.combo.run" : "rami.combo.set", { first: cards[0], last: cards[cards.length - 1], cards: cards.join(" ") });
}

/** A Rami action in words (the hint's suggested move), from its fields: what it does,
 * its card or combinations, and the combination it goes onto. */
function actionWords(action) {
  const parts = [t(`action.${action.kind}`)];
  if (action.card) parts.push(faceOf(action.card));
  if (action.combos) parts.push(action.combos.map((c) => splitCards(c).map(faceOf).join(" ")).join(" + "));
  if (typeof action.target === "number") parts.push(`→ #${action.target + 1}`);
  return parts.join(" ");
}

class RamiPanel extends VariantPanel {
  constructor(root, ctx) {
    super(ctx, "rami", { sorts: SORTS, fallback: "suit" });
    this.selected = new Set();
    this.staged = [];
    this.check = null;
    this.checkNumber = 0;
    this.advice = null;
    this.opponentsEl = h("section", { class: "opponents", "data-testid": "opponents" });
    this.discardEl = h("button", { class: "pile discard", "data-testid": "discard-pile", type: "button", "aria-label": t("common.discard_pile") });
    this.tableEl = h("section", { class: "combos", "data-testid": "rami-table", "aria-label": t("rami.table_label") });
    this.builderEl = h("div", { class: "builder", "data-testid": "builder" });
    this.adviceEl = h("p", { class: "advice", "data-testid": "advice" });
    this.el = h("div", { class: "rami-table variant-table" },
      h("div", { class: "felt" },
        this.opponentsEl,
        h("div", { class: "center-row" },
          h("div", { class: "piles" }, this.stockEl, this.discardEl),
          h("div", { class: "center-text" }, this.promptEl, this.adviceEl)),
        this.tableEl,
        h("section", { class: "player-box me" }, this.builderEl, this.toolbarEl, this.handEl, this.actionsEl)),
      this.sheetEl);
    this.mount(root, this.handEl);
    this.tableEl.addEventListener("click", (event) => {
      const combo = event.target.closest(".combo[data-index]");
      if (combo) this.onCombination(Number(combo.dataset.index));
    });
    this.tableEl.addEventListener("keydown", (event) => {
      const combo = event.target.closest(".combo[data-index]");
      if (combo && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); this.onCombination(Number(combo.dataset.index)); }
    });
  }

  // -- entry points from the table shell ------------------------------------------------

  followView(before, message) {
    if (message && (message.actor === this.ctx.seat || before.round_number !== this.view.round_number)) this.advice = null;
    this.keepSelection();
  }

  markOwnMove(events) { this.flashCombos(events); }

  afterRender() { this.refreshCheck(); }

  // -- helpers ----------------------------------------------------------------------------

  /** Cards still shown in the hand: the view's hand without the staged combinations. */
  handCards() {
    const staged = this.staged.flat();
    return (this.view.hand || []).filter((c) => !staged.includes(c));
  }

  keepSelection() {
    const hand = new Set(this.view.hand || []);
    // Staged combinations belong to an opening being built in this play phase only.
    const bundling = this.view.phase === "draw" && this.info && this.info.rules.discard_must_be_melded;
    const building = this.myTurn && (this.view.phase === "play" || bundling) && !this.view.opened;
    this.staged = building ? this.staged.filter((combo) => combo.every((c) => hand.has(c))) : [];
    for (const card of [...this.selected]) if (!hand.has(card) || this.staged.flat().includes(card)) this.selected.delete(card);
  }

  // -- rendering --------------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    fill(this.opponentsEl, ...opponentsRow(v, this.ctx, {
      bottom: this.mySeat == null ? 0 : this.mySeat,
      isBot: (s) => this.isBot(s),
      extra: (seat, player) => h("span", { class: `opened-badge ${player.opened ? "yes" : ""}` }, player.opened ? t("rami.opened") : t("rami.not_opened")),
    }));
    this.renderPiles();
    this.renderPrompt();
    this.renderTable();
    this.renderBuilder();
    this.renderToolbar();
    this.renderHand();
    this.renderActions();
    this.renderSheet();
    Object.assign(this.el.dataset, {
      phase: v.phase, myTurn: String(this.myTurn), round: String(v.round_number), opened: String(Boolean(v.opened)),
    });
  }

  renderPiles() {
    const v = this.view;
    fillPiles(v, this.stockEl, this.discardEl);
    const one = this.selected.size === 1 ? [...this.selected][0] : null;
    this.stockEl.classList.toggle("clickable", this.myTurn && Boolean(this.legal("draw_stock")));
    this.discardEl.classList.toggle("clickable", this.myTurn && (Boolean(this.legal("take_discard")) || (one !== null && this.canDiscardSoon())));
  }

  canDiscardSoon() {
    return this.view.phase === "discard" || Boolean(this.legal("end_play"));
  }

  renderPrompt() {
    const v = this.view;
    let text;
    if (v.is_over) text = t("prompt.game_over");
    else if (!this.myTurn) text = t(this.isBot(v.current_player) ? "prompt.thinking" : "prompt.to_play", { name: this.name(v.current_player) });
    else if (v.phase === "draw") text = t("rami.prompt.draw");
    else if (v.phase === "play" && !v.opened) text = t("rami.prompt.open", { threshold: v.threshold });
    else if (v.phase === "play") text = t("rami.prompt.play");
    else if (v.phase === "discard") text = t("rami.prompt.discard");
    else text = "";
    this.promptEl.textContent = text;
    const info = [t("reveal.round", { number: v.round_number }), t("rami.info.opening", { threshold: v.threshold })];
    if (v.refills) info.push(t("rami.info.reshuffles", { refills: v.refills, max: v.max_reshuffles }));
    this.promptEl.title = info.join(" · ");
  }

  renderTable() {
    const v = this.view;
    const one = this.selected.size === 1 ? [...this.selected][0] : null;
    const combos = v.table.map((combo) => {
      const plays = one && this.myTurn ? this.playsFor(one, combo.index) : [];
      return h("div", {
        class: `combo ${combo.owner === this.mySeat ? "mine" : ""} ${plays.length ? "fits" : ""}`,
        "data-index": combo.index, "data-owner": combo.owner, "data-testid": `combo-${combo.index}`,
        role: "button", tabindex: 0,
        "aria-label": t("rami.combo.label", { number: combo.index + 1, name: comboName(combo), owner: this.name(combo.owner) }),
      },
        h("div", { class: "combo-head" },
          h("b", {}, `#${combo.index + 1}`), ` ${this.name(combo.owner)} · `, h("span", { class: "muted" }, `${combo.value}`)),
        h("div", { class: "combo-cards" }, combo.cards.map((c) => cardElement(c, { extraClass: "table-card" }))));
    });
    fill(this.tableEl, combos.length ? combos : h("p", { class: "muted empty-table" }, t("rami.table_empty")));
  }

  renderBuilder() {
    const v = this.view;
    clear(this.builderEl);
    if (!this.myTurn || (v.phase !== "play" && !this.staged.length)) { this.builderEl.hidden = true; return; }
    const candidate = this.candidateCombos();
    if (!candidate.length) { this.builderEl.hidden = true; return; }
    this.builderEl.hidden = false;
    const check = this.check && this.check.forKey === JSON.stringify(candidate) ? this.check : null;
    const parts = check && check.combos ? check.combos : candidate.map((cards) => ({ cards, value: null, valid: null }));
    const staged = this.staged.length;
    this.builderEl.append(
      h("div", { class: "builder-combos" }, parts.map((part, i) => h("div", {
        class: `staged ${part.valid === false ? "invalid" : ""} ${i >= staged ? "selection" : ""}`, "data-testid": `staged-${i}`,
      },
        h("div", { class: "combo-cards" }, part.cards.map((c) => cardElement(c, { extraClass: "table-card" }))),
        h("small", {}, part.valid === false ? t("rami.builder.invalid") : part.value == null ? "…" : (i >= staged ? t("rami.builder.selected", { value: part.value }) : `${part.value}`)),
        i < staged ? h("button", { class: "chip", type: "button", "aria-label": t("rami.builder.unstage"), onclick: () => this.unstage(i) }, "✕") : null))),
      h("p", {
        class: `opening-status ${check && check.reaches ? "reaches" : ""}`, "data-testid": "opening-status",
        "data-total": check ? check.total : "", "data-reaches": check ? String(Boolean(check.reaches)) : "",
      }, this.statusText(check)));
  }

  statusText(check) {
    const v = this.view;
    if (v.phase === "draw") return t("rami.status.take_and_open", { card: faceOf(v.upcard || "") });
    if (!check) return t("rami.status.checking");
    if (!v.opened) {
      if (check.ok) return t("rami.status.ready", { total: check.total, threshold: check.threshold });
      const invalid = (check.combos || []).find((p) => p.valid === false);
      // The server says why in English only: other languages get the general sentence.
      if (invalid && language() === "en" && invalid.reason) return `${invalid.cards.join(" ")}: ${invalid.reason}`;
      if (invalid) return t("rami.status.invalid", { cards: invalid.cards.map(faceOf).join(" ") });
      if (check.total < check.threshold) return t("rami.status.short", { total: check.total, threshold: check.threshold, missing: check.threshold - check.total });
      return check.error ? errorText(check.error) : "";
    }
    if (check.ok) return t("rami.status.worth", { total: check.total });
    return check.error ? errorText(check.error) : "";
  }

  renderToolbar() {
    const v = this.view;
    fill(this.toolbarEl,
      h("div", { class: "hand-info" },
        h("b", {}, this.mySeat == null ? t("common.watching") : t("common.your_hand")),
        this.mySeat == null ? null : h("span", { class: "muted" }, ` ${t("common.cards", { count: v.hand.length })} · ${t("rami.hand_points", { count: v.hand_value })}${v.opened ? ` · ${t("rami.opened")}` : ""}`)),
      this.mySeat == null ? null : this.order.buttons(SORTS, () => { this.renderHand(); this.renderToolbar(); }));
  }

  renderHand() {
    const v = this.view;
    if (this.mySeat == null) { fill(this.handEl, h("p", { class: "muted" }, t("common.spectator_hand"))); return; }
    const cards = this.order.arrange(this.handCards());
    const element = (c) => cardElement(c, {
      extraClass: [this.selected.has(c) ? "selected" : "", c === v.taken_card ? "taken" : ""].join(" "),
    });
    if (this.order.mode === "suit") {
      const groups = [];
      for (const c of cards) {
        const suit = isJoker(c) ? "JK" : faceOf(c).slice(-1);
        if (!groups.length || groups[groups.length - 1].suit !== suit) groups.push({ suit, cards: [] });
        groups[groups.length - 1].cards.push(c);
      }
      fill(this.handEl, groups.map((g) => h("div", { class: "group" }, g.cards.map(element))));
    } else {
      fill(this.handEl, h("div", { class: "group" }, cards.map(element)));
    }
  }

  renderActions() {
    const v = this.view;
    clear(this.actionsEl);
    if (!this.myTurn) return;
    const buttons = [];
    const selected = [...this.selected];
    if (v.phase === "play") {
      if (selected.length >= 2) {
        buttons.push(h("button", {
          class: "secondary", "data-testid": "combine", disabled: this.busy,
          onclick: () => (v.opened ? this.meld(selected) : this.stage(selected)),
        }, v.opened ? t("rami.lay_combination", { count: selected.length }) : t("rami.set_aside")));
      }
      if (!v.opened && this.candidateCombos().length) {
        const check = this.check && this.check.forKey === JSON.stringify(this.candidateCombos()) ? this.check : null;
        buttons.push(h("button", {
          class: "primary", "data-testid": "open", disabled: !(check && check.ok) || this.busy,
          onclick: () => this.open(),
        }, check && check.total ? t("rami.open_with", { total: check.total }) : t("rami.open")));
      }
      if (this.staged.length) buttons.push(h("button", { class: "secondary", "data-testid": "clear-builder", onclick: () => { this.staged = []; this.afterSelection(); } }, t("rami.take_back")));
      if (this.legal("end_play")) buttons.push(h("button", { class: "secondary", "data-testid": "end-play", disabled: this.busy, onclick: () => this.send(this.legal("end_play")) }, t("rami.end_play")));
    }
    if (v.phase === "draw" && this.info.rules.discard_must_be_melded && !v.opened && selected.length >= 2) {
      // Set combinations aside to open with, the pile's top card joining the last one.
      buttons.push(h("button", { class: "secondary", "data-testid": "combine", onclick: () => this.stage(selected) }, t("rami.set_aside")));
    }
    if (v.phase === "draw" && this.info.rules.discard_must_be_melded && this.staged.length) {
      buttons.push(h("button", { class: "secondary", "data-testid": "clear-builder", onclick: () => { this.staged = []; this.afterSelection(); } }, t("rami.take_back")));
    }
    if (selected.length === 1 && this.canDiscardSoon()) {
      buttons.push(h("button", { class: "primary", "data-testid": "discard", disabled: this.busy, onclick: () => this.discard(selected[0]) }, t("gin.discard_card", { card: faceOf(selected[0]) })));
    }
    buttons.push(h("button", { class: "secondary", "data-testid": "hint", disabled: this.busy, onclick: () => this.askHint() }, t("common.hint")));
    this.actionsEl.append(...buttons);
  }

  renderSheet() {
    const v = this.view;
    const sheet = v.score_sheet;
    const seats = v.players.map((p) => p.seat);
    const goal = sheet.end_mode === "rounds" ? t("rami.sheet.rounds", { count: sheet.rounds })
      : sheet.end_mode === "elimination" ? t("rami.sheet.elimination", { limit: sheet.limit }) : t("sheet.game_to", { count: sheet.limit });
    fill(this.sheetEl,
      h("h3", {}, t("rami.sheet.title"), " ", h("small", { class: "muted" }, t("rami.sheet.goal", { goal }))),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, t("rami.sheet.round")), seats.map((s) => h("th", { class: "num" }, this.name(s))))),
        h("tbody", {},
          sheet.rows.map((row) => h("tr", {},
            h("td", {}, `${row.round}`, row.rami_sec ? ` ${t("rami.sheet.rami_sec")}` : row.outcome === "blocked" ? ` ${t("rami.sheet.blocked")}` : ""),
            seats.map((s) => h("td", { class: `num ${row.winners.includes(s) ? "winner" : ""}` }, `${row.penalties[s]}`)))),
          h("tr", { class: "total" }, h("td", {}, t("sheet.total")), seats.map((s) => h("td", { class: "num", "data-testid": `total-${s}` }, `${v.scores[s]}`))))),
      sheet.final ? h("p", { class: "final-line" }, t("sheet.winner", { names: listOf(sheet.final.winners.map((s) => this.name(s))) })) : null);
  }

  // -- what the selected card can do on a combination (the server's lists) --------------

  /** Lay-offs and joker swaps of `card` onto combination `index` from the view's moves. */
  playsFor(card, index) {
    const face = faceOf(card);
    const all = [...(this.view.moves || []), ...(this.view.legal_actions || [])];
    return all.filter((m) => (m.kind === "layoff" || m.kind === "swap_joker") && m.target === index && faceOf(m.card) === face)
      .map((m) => ({ ...m, card }));
  }

  candidateCombos() {
    const combos = this.staged.map((c) => [...c]);
    if (this.selected.size >= 3 && !this.view.opened) combos.push(sortCards([...this.selected], "suit"));
    if (this.view.opened && this.selected.size >= 3) return [sortCards([...this.selected], "suit")];
    return combos;
  }

  // -- the live check of the opening (or of a new combination) ---------------------------

  async refreshCheck() {
    const v = this.view;
    const combos = this.myTurn && v.phase === "play" ? this.candidateCombos() : [];
    const key = JSON.stringify(combos);
    if (!combos.length) { this.check = null; return; }
    if (this.check && this.check.forKey === key) return;
    const number = ++this.checkNumber;
    const action = v.opened ? { kind: "meld", combos: [combos[0].join(" ")] } : { kind: "open", combos: combos.map((c) => c.join(" ")) };
    try {
      const reply = await this.ctx.check(action);
      if (number !== this.checkNumber) return;
      this.check = { ...reply, forKey: key };
    } catch (error) {
      if (number !== this.checkNumber) return;
      this.check = { ok: false, error, combos: null, forKey: key };
    }
    this.renderBuilder();
    this.renderActions();
  }

  afterSelection() {
    this.renderTable();
    this.renderBuilder();
    this.renderHand();
    this.renderActions();
    this.renderPiles();
    this.refreshCheck();
  }

  // -- actions ----------------------------------------------------------------------------

  onStock() {
    if (!this.myTurn) return;
    const draw = this.legal("draw_stock");
    if (draw) this.send(draw);
  }

  onDiscardPile() {
    if (!this.myTurn) return;
    const take = this.legal("take_discard");
    if (take) { this.send(take); return; }
    if (this.view.phase === "draw" && this.info.rules.discard_must_be_melded && this.view.upcard) { this.takeAndLay(); return; }
    if (this.selected.size === 1 && this.canDiscardSoon()) { this.discard([...this.selected][0]); return; }
    if (this.view.phase === "draw") this.ctx.toast(t("rami.toast.draw_stock"), "info");
    else this.ctx.toast(t("rami.toast.select_discard"), "info");
  }

  /** With ``discard_must_be_melded`` the top card is taken together with the play that
   * lays it: the selected cards (and, before opening, the combinations set aside) with it. */
  takeAndLay() {
    const v = this.view;
    const selected = [...this.selected];
    if (selected.length < 2) {
      this.ctx.toast(t("rami.toast.lay_top_card"), "info");
      return;
    }
    const withTop = sortCards([...selected, v.upcard], "suit").join(" ");
    const then = v.opened
      ? { kind: "meld", combos: [withTop] }
      : { kind: "open", combos: [...this.staged.map((c) => c.join(" ")), withTop] };
    this.send({ kind: "take_discard", then }).then((done) => { if (done) { this.selected.clear(); this.staged = []; } });
  }

  onCardClick(card) {
    const v = this.view;
    if (this.mySeat == null) return;
    if (this.myTurn && v.phase === "discard" && this.selected.size === 1 && this.selected.has(card)) { this.discard(card); return; }
    if (v.phase === "discard") this.selected.clear();
    if (this.selected.has(card)) this.selected.delete(card); else this.selected.add(card);
    this.afterSelection();
  }

  stage(cards) {
    this.staged.push(sortCards(cards, "suit"));
    this.selected.clear();
    this.afterSelection();
  }

  unstage(index) {
    this.staged.splice(index, 1);
    this.afterSelection();
  }

  async open() {
    const combos = this.candidateCombos();
    const done = await this.send({ kind: "open", combos: combos.map((c) => c.join(" ")) });
    if (done) { this.staged = []; this.selected.clear(); }
  }

  async meld(cards) {
    const done = await this.send({ kind: "meld", combos: [sortCards(cards, "suit").join(" ")] });
    if (done) this.selected.clear();
  }

  async discard(card) {
    await busyWhile(this, async () => {
      if (this.view.phase === "play") await this.ctx.act(this.legal("end_play") || { kind: "end_play" });
      await this.ctx.act({ kind: "discard", card });
      this.selected.clear();
    });
  }

  async onCombination(index) {
    if (!this.myTurn || this.selected.size !== 1) {
      if (this.myTurn && this.view.phase === "play") this.ctx.toast(t("rami.toast.select_one"), "info");
      return;
    }
    await this.layOn([...this.selected][0], index);
  }

  async layOn(card, index) {
    const plays = this.playsFor(card, index);
    const layoff = plays.find((p) => p.kind === "layoff");
    let action = layoff;
    if (!action) {
      const swaps = plays.filter((p) => p.kind === "swap_joker");
      if (swaps.length === 1) action = swaps[0];
      else if (swaps.length > 1) {
        action = await chooseDialog(t("rami.swap.question", { card: faceOf(card), number: index + 1 }),
          swaps.map((s) => ({ value: s, label: this.jokerDestination(s) })));
        if (!action) return;
      }
    }
    // With nothing listed the server still decides, and says why in words when it refuses.
    const done = await this.send(action || { kind: "layoff", card, target: index });
    if (done) this.selected.delete(card);
  }

  jokerDestination(swap) {
    if (swap.joker_target != null) {
      const combo = this.view.table[swap.joker_target];
      return t("rami.swap.onto", { number: swap.joker_target + 1, name: combo ? comboName(combo) : "" });
    }
    if (swap.joker_cards) return t("rami.swap.new", { cards: splitCards(swap.joker_cards).map(faceOf).join(" ") });
    return t("rami.swap.keep");
  }

  async askHint() {
    let advice;
    try {
      advice = await busyWhile(this, () => this.ctx.hint());
    } catch (error) { return; }
    if (!advice) return;
    const v = this.view;
    const lines = [];
    if (!advice.opened) {
      if (advice.opening) {
        lines.push(t("rami.hint.opening", { combos: advice.opening.combos.map((c) => c.map(faceOf).join(" ")).join(" + "), value: advice.opening.value }));
        if (this.myTurn && v.phase === "play") {
          // Set the solver's combinations aside in the builder, ready to open.
          this.staged = advice.opening.combos.map((c) => [...c]);
          this.selected.clear();
        }
      } else lines.push(t("rami.hint.no_opening", { threshold: v.threshold }));
    } else {
      if (advice.melds && advice.melds.length) lines.push(t("rami.hint.melds", { combos: advice.melds.map((c) => c.map(faceOf).join(" ")).join(" + ") }));
      const layoffs = (advice.moves || []).filter((m) => m.kind === "layoff");
      if (layoffs.length) lines.push(t("rami.hint.layoffs", { moves: listOf(layoffs.map((m) => t("rami.hint.layoff", { card: faceOf(m.card), number: m.target + 1 }))) }));
      const swaps = (advice.moves || []).filter((m) => m.kind === "swap_joker");
      if (swaps.length) lines.push(t("rami.hint.swap", { card: faceOf(swaps[0].card), number: swaps[0].target + 1 }));
    }
    if (advice.suggestion) lines.push(t("rami.hint.suggestion", { move: actionWords(advice.suggestion.action) }));
    this.advice = lines.join(" ");
    this.adviceEl.textContent = this.advice;
    this.afterSelection();
  }

  // -- drag a card onto a combination, the pile, or to another place in the hand ----------

  onPointerDown(event) {
    this.dragFromHand(event, {
      highlight: (card, target) => {
        if (!target || !this.myTurn) return null;
        const combo = target.closest(".combo[data-index]");
        if (combo) return combo;
        return this.discardEl.contains(target) ? this.discardEl : null;
      },
      dropOn: (card, target) => {
        const combo = target && target.closest(".combo[data-index]");
        if (combo && this.myTurn) { this.layOn(card, Number(combo.dataset.index)); return true; }
        if (!target || !this.discardEl.contains(target)) return false;
        if (!this.myTurn) return true;
        if (this.canDiscardSoon()) this.discard(card);
        else this.ctx.toast(t("rami.toast.discard_after_draw"), "info");
        return true;
      },
    });
  }

  // -- animations of the other players' moves ----------------------------------------------

  flashCombos(events) {
    const touched = new Set();
    for (const e of events) {
      const d = e.detail || {};
      if (Array.isArray(d.targets)) d.targets.forEach((t) => touched.add(t));
      if (typeof d.target === "number") touched.add(d.target);
    }
    for (const index of touched) {
      const el = this.tableEl.querySelector(`.combo[data-index="${index}"]`);
      if (el) { el.classList.add("fresh"); setTimeout(() => el.classList.remove("fresh"), 1300); }
    }
  }

  async animate(events, actor) {
    const chip = this.opponentsEl.querySelector(`.opponent-chip[data-seat="${actor}"]`);
    for (const event of events) {
      if (event.seat !== actor || event.seat === this.mySeat) continue;
      if (event.kind === "draw_stock") await fly(this.stockEl, chip, null);
      else if (event.kind === "take_discard") await fly(this.discardEl, chip, event.card);
      else if (event.kind === "discard") await fly(chip, this.discardEl, event.card);
      else if (event.kind === "open") bubble(chip, t("rami.bubble.open", { value: event.detail.value }));
      else if (event.kind === "meld") bubble(chip, t("rami.bubble.meld"));
      else if (event.kind === "layoff") bubble(chip, t("rami.bubble.layoff", { card: event.card ? faceOf(event.card) : "" }));
      else if (event.kind === "swap_joker") bubble(chip, t("rami.bubble.swap_joker"));
    }
    this.flashCombos(events);
  }

  // -- end of round -------------------------------------------------------------------------

  showReveal(result) {
    const v = this.view;
    const name = (s) => this.name(s);
    let title;
    if (result.outcome === "out") title = t(result.rami_sec ? "rami.reveal.rami_sec" : "rami.reveal.out", { name: name(result.winners[0]) });
    else title = t(result.blocked_reason === "turns" ? "rami.reveal.blocked_turns" : "rami.reveal.blocked_stock", { names: listOf(result.winners.map(name)) });
    this.openReveal({
      label: "reveal.round", number: result.round, outcome: result.outcome, title,
      body: [
        h("table", { class: "reveal-table" },
          h("thead", {}, h("tr", {}, h("th", {}, t("reveal.player")), h("th", {}, t("reveal.cards_left")), h("th", { class: "num" }, t("rami.reveal.penalty")), h("th", { class: "num" }, t("sheet.total")))),
          h("tbody", {}, result.hands.map((cards, seat) => h("tr", { "data-seat": seat, class: result.winners.includes(seat) ? "winner" : "" },
            h("td", {}, name(seat), result.opened[seat] ? "" : h("small", { class: "muted" }, ` ${t("rami.reveal.never_opened")}`)),
            h("td", {}, h("div", { class: "reveal-cards" }, sortCards(cards, "suit").map((c) => cardElement(c, { extraClass: "table-card" })))),
            h("td", { class: "num" }, `${result.penalties[seat]}`),
            h("td", { class: "num" }, `${v.scores[seat]}`))))),
      ],
      finalResult: (final) => [
        h("h3", {}, t("reveal.wins_game", { names: listOf(final.winners.map(name)), count: final.winners.length })),
        h("p", {}, t("reveal.totals", { totals: final.totals.map((total, s) => `${name(s)} ${total}`).join(" · ") })),
      ],
      next: t("reveal.next_round"),
    });
  }
}
