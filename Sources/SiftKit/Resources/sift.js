// The search bar arrives with issue 4.
