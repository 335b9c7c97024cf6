/**
 * Words too common to say two ideas are alike (English; other languages rank by their rarer words
 * anyway). "app", "feature" and the like say nothing on a product's feedback board.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an the and or for with from that this these those into onto when what where which who how why please add adding can could would should will not no you your our we us are is be was were have has had but all any its it via able more less make new use using also some to of in on at by as if so do does did me my i get got want need like app apps feature features option options way thing things support better allow let'.split(
    ' ',
  ),
);
