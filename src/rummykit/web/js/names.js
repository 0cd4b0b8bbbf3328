// How the table names what the server sends by name: a game (from its catalog name), a
// preset, a rule option and its choices, a bot level and a seat (the default names the lobby and the server give are said in the
// reader's language; a name a person chose is theirs).
import { has, t } from "./i18n.js";

/** A bot level's name ("expert" -> "expert bot"); a plugin's level keeps its own name. */
export function botLevel(level) {
  const id = `bot.${level}`;
  const text = t(id);
  return text === id ? t("bot.other", { level }) : text;
}

/** A game's title from its catalog name; the server's title for a game the catalogs do
 * not know (a plugin's). */
export function gameTitle(variant, title) {
  const id = `game.${variant}`;
  const text = t(id);
  return text === id ? title : text;
}

/** A seat's name; the names the lobby and the server give by default ("Bot 2",
 * "Bot (expert)", "Player 3") are said in the reader's language. */
export function seatName(seat) {
  const name = seat.name || "";
  let match = /^Bot (\d+)$/.exec(name);
  if (seat.kind === "bot" && match) return t("seat.bot_name", { number: Number(match[1]) });
  match = /^Bot \((\w+)\)$/.exec(name);
  if (seat.kind === "bot" && match) return botLevel(match[1]);
  match = /^Player (\d+)$/.exec(name);
  if (seat.kind === "human" && match) return t("seat.player", { number: Number(match[1]) });
  return name || t("seat.number", { number: seat.seat + 1 });
}

/** A catalog's words for `id`, else the server's `name` made readable (a plugin game's
 * option or choice the catalogs do not know). */
function wordsFor(id, name) { return has(id) ? t(id) : String(name).replace(/_/g, " "); }
export function optionLabel(name) { return wordsFor(`option.${name}`, name); }
export function choiceLabel(value) { return /^\d+$/.test(value) ? value : wordsFor(`choice.${value}`, value); }
export function presetLabel(name) { return wordsFor(`preset.${name}`, name); }
