/**
 * Imported first by every test that draws with Ink: Ink decides when it loads
 * whether it runs under CI (the CI variable), and then draws nothing until it
 * exits. These tests emulate a user's terminal, whatever the CI says.
 */
process.env.CI = 'false';
