#!/usr/bin/env python3
"""Checks a conversation file of `conversations/` against the rules `make_conversations.py`'s
docstring gives (the shape only; whether the chat reads well is for a person to judge).

    python3 scripts/bench-requests/check_conversation.py conversations/train/conv17.json

Exits 1 with one line per broken rule: two speakers; 15 sessions in date order over five to
nine months; 14 to 20 turns a session, the speakers alternating; 45 questions, each pointing at
a turn that exists (session and turn counted from 1), at least 8 of them asking "when", none
sharing a run of three words with its evidence turn.
"""

import datetime
import json
import re
import sys


def words(text):
    return re.findall(r"[a-z0-9']+", text.lower())


def trigrams(text):
    w = words(text)
    return {tuple(w[i:i + 3]) for i in range(len(w) - 2)}


def check(conv):
    errors = []
    speakers = conv.get("speakers", [])
    if len(speakers) != 2 or len(set(speakers)) != 2:
        errors.append(f"speakers: want two different names, got {speakers!r}")
    sessions = conv.get("sessions", [])
    if len(sessions) != 15:
        errors.append(f"sessions: want 15, got {len(sessions)}")
    dates = []
    for s, session in enumerate(sessions, 1):
        try:
            dates.append(datetime.datetime.fromisoformat(session["date"]))
        except (KeyError, ValueError) as e:
            errors.append(f"session {s}: bad date ({e})")
        turns = session.get("turns", [])
        if not 14 <= len(turns) <= 20:
            errors.append(f"session {s}: want 14 to 20 turns, got {len(turns)}")
        for t, turn in enumerate(turns, 1):
            if turn.get("speaker") not in speakers:
                errors.append(f"session {s} turn {t}: unknown speaker {turn.get('speaker')!r}")
            elif t > 1 and turn["speaker"] == turns[t - 2].get("speaker"):
                errors.append(f"session {s} turn {t}: the same speaker twice in a row")
            if not str(turn.get("text", "")).strip():
                errors.append(f"session {s} turn {t}: empty text")
    if dates and dates != sorted(dates):
        errors.append("sessions are not in date order")
    if len(dates) >= 2:
        days = (dates[-1] - dates[0]).days
        if not 150 <= days <= 280:
            errors.append(f"sessions span {days} days, want about seven months (150 to 280)")
    questions = conv.get("questions", [])
    if len(questions) != 45:
        errors.append(f"questions: want 45, got {len(questions)}")
    when = 0
    for i, q in enumerate(questions, 1):
        text = q.get("question", "")
        s, t = q.get("session"), q.get("turn")
        if not (isinstance(s, int) and 1 <= s <= len(sessions)):
            errors.append(f"question {i}: no session {s!r}")
            continue
        turns = sessions[s - 1].get("turns", [])
        if not (isinstance(t, int) and 1 <= t <= len(turns)):
            errors.append(f"question {i}: session {s} has no turn {t!r}")
            continue
        shared = trigrams(text) & trigrams(turns[t - 1].get("text", ""))
        if shared:
            errors.append(f"question {i}: shares {' '.join(sorted(shared)[0])!r} with its turn")
        if words(text)[:1] == ["when"] or " when " in f" {text.lower()} ":
            when += 1
    if when < 8:
        errors.append(f"questions: {when} ask 'when', want at least 8")
    return errors


def main():
    bad = 0
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            errors = check(json.load(f))
        for e in errors:
            print(f"{path}: {e}")
        bad += bool(errors)
        if not errors:
            print(f"{path}: ok")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
