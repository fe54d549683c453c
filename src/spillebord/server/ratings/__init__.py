"""Ratings (issue 15): the rating sweep, the rating routes and their storage."""
