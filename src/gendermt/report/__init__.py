"""What people read: the report's front page and tables, figures' plumbing and marks, the findings
page."""
