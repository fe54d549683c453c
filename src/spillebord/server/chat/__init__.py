"""Table chat (issue 15): the service and its storage."""
