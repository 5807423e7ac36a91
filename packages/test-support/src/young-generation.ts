// How large V8's young generation grows in a fresh Node process started with the given flags: for tests
// of the Node flags a launcher passes (the embedded process's, the data plane's).
import { execFileSync } from 'node:child_process';

// Millions of objects, each kept for the next 200,000 allocations: enough survivors for V8 to grow the
// young generation to its cap (32 MiB on Node 20 and 22 by default, 128 on Node 24).
const CHURN = 'const ring=new Array(200000);for(let i=0;i<3e6;i+=1)ring[i%200000]={i,text:String(i)};'
  + 'const v8=require("node:v8");process.stdout.write(String(v8.getHeapSpaceStatistics().find((s)=>s.space_name==="new_space").space_size))';

/** Bytes of new space committed after the churn, in a child process of this Node binary with `flags`. */
export function newSpaceAfterChurn(flags: readonly string[]): number {
  return Number(execFileSync(process.execPath, [...flags, '-e', CHURN], { encoding: 'utf8' }));
}
