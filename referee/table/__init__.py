"""At the table: show, legal, tally and the live referee."""
