"""Tournaments between bots on duplicate deals (``fives tournament``), with honest statistics."""

from fives.tournament.runner import Plan, Tournament, run_tournament, seatings, summarise

__all__ = ["Plan", "Tournament", "run_tournament", "seatings", "summarise"]
