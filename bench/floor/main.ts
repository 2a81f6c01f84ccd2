// The floor: the same Nest, express, TypeORM, @nestjs/jwt and passport-jwt as the app, one JWT-guarded
// findOne by primary key, the secret as a key object. Env: PORT, DATABASE_URL, JWT_SECRET.
import 'reflect-metadata';
import { createSecretKey } from 'node:crypto';
import { Controller, Get, Injectable, Module, NotFoundException, Param, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { Column, Entity, PrimaryColumn, Repository } from 'typeorm';

const key = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? '', 'utf8'));

@Entity('users')
class User {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text') email!: string;
  @Column('text') type!: string;
}

@Injectable()
class JwtStrategy extends PassportStrategy(Strategy) {
  constructor() {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: key as unknown as Buffer, algorithms: ['HS256'] });
  }
  validate(payload: { sub: string }) {
    return { id: payload.sub };
  }
}

@Controller()
class FloorController {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}
  @Get('floor/users/:id')
  @UseGuards(AuthGuard('jwt'))
  async one(@Param('id') id: string) {
    const user = await this.users.findOne({ where: { id } });
    if (!user) throw new NotFoundException();
    return { success: true, data: user };
  }
}

@Module({
  imports: [
    TypeOrmModule.forRoot({ type: 'postgres', url: process.env.DATABASE_URL, entities: [User], synchronize: false, extra: { max: 10 } }),
    TypeOrmModule.forFeature([User]),
    PassportModule,
    JwtModule.register({ secret: key as unknown as string }),
  ],
  controllers: [FloorController],
  providers: [JwtStrategy],
})
class FloorModule {}

async function main() {
  const app = await NestFactory.create(FloorModule, { logger: ['error'] });
  await app.listen(Number(process.env.PORT ?? 3999), '127.0.0.1');
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
void main();
