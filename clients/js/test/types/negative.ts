import { Sno, SnowflakeSi } from 'pgkuid';
// @ts-expect-error the constructors are closed
new Sno();
// @ts-expect-error snowflake_si's value is a number
const s: string = SnowflakeSi.parse('1').value;
// @ts-expect-error compareTo takes the same class
Sno.parse('2222222222222222').compareTo(SnowflakeSi.parse('1'));
console.log(s);
