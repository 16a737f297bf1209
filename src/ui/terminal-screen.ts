/** The board draws on the alternate screen, so quitting gives the user's shell screen back as it was. */
export const ENTER_BOARD_SCREEN = '\x1b[?1049h\x1b[H\x1b[2J';
/** After an attach the program may have left the alternate screen (its restore does): enter it again, blank. */
export const REENTER_BOARD_SCREEN = '\x1b[?1049h\x1b[0m\x1b[H\x1b[2J';
export const LEAVE_BOARD_SCREEN = '\x1b[0m\x1b[?25h\x1b[?1049l';
