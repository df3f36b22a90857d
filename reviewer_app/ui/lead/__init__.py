"""The Lead workspace: queue health, reviewer figures, audits, escalations and decisions."""
