"""The daily deal (issue 15): its routes and service, and its storage."""
