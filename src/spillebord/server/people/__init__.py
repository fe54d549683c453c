"""People at the table: display names, accounts, sign-in sessions (issue 15)."""
