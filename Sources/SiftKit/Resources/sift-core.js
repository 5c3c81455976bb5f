// The search core arrives with issue 4.
