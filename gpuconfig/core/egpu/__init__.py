"""Will an external GPU work on this laptop, which enclosure and card, and how fast over its link."""
