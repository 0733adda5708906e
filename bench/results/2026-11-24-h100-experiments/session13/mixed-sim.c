#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
static uint64_t s=88172645463325252ull; static uint64_t rnd(){s^=s<<13;s^=s>>7;s^=s<<17;return s;}
#define S 4
int main(){ uint64_t n=1<<23; uint64_t cap=(uint64_t)(n/0.95); uint64_t B=cap/S;
 int32_t *tab=malloc(B*S*4); for(uint64_t i=0;i<B*S;i++) tab[i]=-1; /* -1 empty, -2 tomb, else key id */
 uint64_t ni=n/2,nf=(uint64_t)(n*0.3),ne=n-ni-nf; uint64_t *h1=malloc(n*8),*h2=malloc(n*8);
 for(uint64_t k=0;k<n;k++){h1[k]=rnd()%B;h2[k]=rnd()%B;}
 /* place: first free (empty) of b1, else of b2; else a tomb of b1/b2; else 'evict' (count) and put anywhere */
 uint64_t def=0,deftomb=0,evict=0,defshort=0;
 #define PLACE(k,count) do{ int64_t *dummy; int done=0; for(int j=0;j<S&&!done;j++){ if(tab[h1[k]*S+j]==-1){tab[h1[k]*S+j]=k;done=1;} } \
  for(int j=0;j<S&&!done;j++){ if(tab[h2[k]*S+j]==-1){tab[h2[k]*S+j]=k;done=1;} } \
  if(!done&&count){def++;} \
  for(int j=0;j<S&&!done;j++){ if(tab[h1[k]*S+j]==-2){tab[h1[k]*S+j]=k;done=1;if(count)deftomb++;} } \
  for(int j=0;j<S&&!done;j++){ if(tab[h2[k]*S+j]==-2){tab[h2[k]*S+j]=k;done=1;if(count)deftomb++;} } \
  if(!done){ if(count)evict++; for(;;){uint64_t b=rnd()%B; int f=0; for(int j=0;j<S;j++) if(tab[b*S+j]<0){tab[b*S+j]=k;f=1;break;} if(f)break;} } }while(0)
 for(uint64_t k=0;k<nf+ne;k++) PLACE(k,0);
 /* ops: inserts keys nf+ne..n-1, erases keys nf..nf+ne-1, random interleave */
 uint64_t nops=ni+ne; uint64_t *ops=malloc(nops*8); for(uint64_t i=0;i<ni;i++) ops[i]=nf+ne+i; for(uint64_t i=0;i<ne;i++) ops[ni+i]=(1ull<<63)|(nf+i);
 for(uint64_t i=nops-1;i>0;i--){uint64_t j=rnd()%(i+1);uint64_t t=ops[i];ops[i]=ops[j];ops[j]=t;}
 for(uint64_t i=0;i<nops;i++){ uint64_t o=ops[i]; if(o>>63){uint64_t k=o&~(1ull<<63); for(int j=0;j<S;j++){ if(tab[h1[k]*S+j]==(int32_t)k){tab[h1[k]*S+j]=-2;goto d;} if(tab[h2[k]*S+j]==(int32_t)k){tab[h2[k]*S+j]=-2;goto d;} } 
   for(uint64_t x=0;x<B*S;x++) if(tab[x]==(int32_t)k){tab[x]=-2;break;} d:; } else PLACE(o,1); }
 printf("inserts %llu: deferred %.4f, of which tomb-claim %.3f, evict %.3f\n",(unsigned long long)ni,(double)def/ni,(double)deftomb/def,(double)evict/def);
}
