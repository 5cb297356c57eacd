import { Log } from 'youtubei.js';

/**
 * youtubei.js prints its parser's warnings (`[YOUTUBEJS][Text]: Unable to find matching run…`) to the
 * console, outside our JSON logs; they say YouTube's markup had a run the parser skips. Through its
 * public logging API it keeps only its errors; our own shape checks report changes (ADR 0054).
 * Imported for this effect by every module that hands pages to its parser.
 */
Log.setLevel(Log.Level.ERROR);
