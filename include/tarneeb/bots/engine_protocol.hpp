// The engine protocol, version 1 (docs/engine-protocol.md): a line-based text protocol between
// a host (the table: `tarneeb simulate`, `play`, `serve`) and an outside computer player (an
// "engine", a separate program on the host's pipes), in the spirit of UCI and GTP.
//
// The protocol's text and nothing else, so that both ends share it, one role per header:
//   - engine_notation.hpp: an action as one token (record-format.md: "pass", "8", "H", "QS"),
//     the legal actions as a line, the preset's name, split_command;
//   - engine_lines.hpp: the single lines, each with its writer and reader: the host's hello,
//     setoption and go (go_line, parse_go), the engine's id, option, ready, action, info and
//     error (parse_engine_line);
//   - engine_feed.hpp, the host's side: EngineFeed turns what a seat sees (a SeatView, never
//     more) into the lines that tell an engine of the match, the deal and every action;
//   - engine_game.hpp, the engine's side: EngineGame reads the host's lines back into a
//     SeatView (what `tarneeb engine --bot NAME` hands to a registered bot).
// This header includes all four. No processes and no clocks here (engine_process.hpp,
// engine_bot.hpp).
//
// Hidden information: EngineFeed reads only a SeatView, so it can write no card that the seat
// may not see (the seat's own hand, and each card once played). EngineGame rebuilds a Round that
// replays the history (the cards of the other seats filled in consistently with the plays and
// the suits they showed out of) and hands out only SeatView(round, seat): equal to the host's
// view of the same seat (tests/bots/engine_protocol_test.cpp).
#pragma once

#include "tarneeb/bots/engine_feed.hpp"
#include "tarneeb/bots/engine_game.hpp"
#include "tarneeb/bots/engine_lines.hpp"
#include "tarneeb/bots/engine_notation.hpp"
