-- uid 0.4.0 -> 0.5.0

\echo Use "ALTER EXTENSION uid UPDATE TO '0.5.0'" to load this file. \quit
